"use client";

import * as React from "react";
import { NativeSelect } from "@/components/campaigns/native-select";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import { useApi } from "./use-api";

type SimulatedKind = "text" | "button" | "stop_promotions" | "interactive" | "media" | "location" | "reaction";

const KINDS: { value: SimulatedKind; label: string }[] = [
  { value: "text", label: "Text" },
  { value: "button", label: "Quick-reply button" },
  { value: "stop_promotions", label: "Stop promotions button" },
  { value: "interactive", label: "Interactive reply (button or list row)" },
  { value: "media", label: "Media" },
  { value: "location", label: "Location" },
  { value: "reaction", label: "Reaction" },
];
const MEDIA_TYPES = ["image", "video", "audio", "document", "sticker"] as const;
const DEFAULT_MIME: Record<(typeof MEDIA_TYPES)[number], string> = {
  image: "image/jpeg",
  video: "video/mp4",
  audio: "audio/ogg",
  document: "application/pdf",
  sticker: "image/webp",
};

interface Fields {
  text: string;
  payload: string;
  mediaType: (typeof MEDIA_TYPES)[number];
  mimeType: string;
  caption: string;
  filename: string;
  latitude: string;
  longitude: string;
  name: string;
  address: string;
  emoji: string;
}

const EMPTY: Fields = { text: "", payload: "", mediaType: "image", mimeType: "image/jpeg", caption: "", filename: "", latitude: "", longitude: "", name: "", address: "", emoji: "👍" };

const optional = (value: string) => (value.trim() ? value.trim() : undefined);

/** The `POST /api/sandbox/inbound` body for the chosen kind, or null while something required is missing. */
function bodyOf(kind: SimulatedKind, fields: Fields, contactId: string, replyToMessageId: string): Record<string, unknown> | null {
  const base = { contactId, replyToMessageId: optional(replyToMessageId) };
  switch (kind) {
    case "text":
      return fields.text.trim() ? { ...base, text: fields.text } : null;
    case "button":
    case "interactive":
      return fields.text.trim() ? { ...base, kind, text: fields.text, payload: optional(fields.payload) } : null;
    case "stop_promotions":
      return { ...base, kind: "button", text: "Stop promotions" };
    case "media":
      return fields.mimeType.trim() ? { ...base, kind, mediaType: fields.mediaType, mimeType: fields.mimeType.trim(), caption: optional(fields.caption), filename: optional(fields.filename) } : null;
    case "location": {
      const latitude = Number(fields.latitude);
      const longitude = Number(fields.longitude);
      if (!fields.latitude.trim() || !fields.longitude.trim() || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
      return { ...base, kind, latitude, longitude, name: optional(fields.name), address: optional(fields.address) };
    }
    case "reaction":
      return fields.emoji.trim() && replyToMessageId ? { ...base, kind, emoji: fields.emoji.trim() } : null;
  }
}

function outcomeText(action: "opted_out" | "opted_in" | "none", changed: boolean): string {
  if (action === "none") return "Reply received. It asks for no consent change, so nothing else changed.";
  if (action === "opted_out") return changed ? "Reply received: the contact opted out." : "Reply received: the contact was already opted out.";
  return changed ? "Reply received: the contact opted back in." : "Reply received: the contact was already opted in.";
}

/** Sandbox only: pretend the contact sent a message of any kind, as the WhatsApp webhook would report it. */
export function SimulateReply({ contactId, version, onReplied }: { contactId: string; version: number; onReplied: () => void }) {
  const [kind, setKind] = React.useState<SimulatedKind>("text");
  const [fields, setFields] = React.useState<Fields>(EMPTY);
  const [replyTo, setReplyTo] = React.useState("");
  const [busy, setBusy] = React.useState(false);
  const sent = useApi<{ data: { id: string; text: string; wamid: string | null; createdAt: string }[] }>(`/api/v1/contacts/${contactId}/messages?direction=outbound&limit=20&v=${version}`);
  const answerable = (sent.data?.data ?? []).filter((message) => message.wamid);
  const set = (key: keyof Fields) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setFields((current) => ({ ...current, [key]: event.target.value }));
  const body = bodyOf(kind, fields, contactId, replyTo);

  async function send(event: React.FormEvent) {
    event.preventDefault();
    if (!body) return;
    setBusy(true);
    const result = await requestJson<{ action: "opted_out" | "opted_in" | "none"; changed: boolean }>("/api/sandbox/inbound", { method: "POST", body });
    setBusy(false);
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    toast.success(outcomeText(result.data.action, result.data.changed));
    setFields((current) => ({ ...current, text: "", payload: "", caption: "", filename: "" }));
    onReplied();
  }

  const field = (label: string, key: keyof Fields, props: React.ComponentProps<typeof Input> = {}) => (
    <Input aria-label={label} placeholder={label} value={fields[key]} onChange={set(key)} {...props} />
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Simulate a reply</CardTitle>
        <CardDescription>Sandbox: receive a message from this contact. Try STOP, START or the Stop promotions button.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={send} className="grid gap-2">
          <NativeSelect aria-label="Message kind" value={kind} onChange={(event) => setKind(event.target.value as SimulatedKind)}>
            {KINDS.map((option) => (
              <option key={option.value} value={option.value}>{option.label}</option>
            ))}
          </NativeSelect>
          <NativeSelect aria-label="Answering message" value={replyTo} onChange={(event) => setReplyTo(event.target.value)}>
            <option value="">{kind === "reaction" ? "Pick the message reacted to" : "Not answering a message"}</option>
            {answerable.map((message) => (
              <option key={message.id} value={message.id}>{message.text.slice(0, 60)}</option>
            ))}
          </NativeSelect>
          {kind === "text" && <Input aria-label="Reply text" placeholder="STOP" value={fields.text} onChange={set("text")} maxLength={4096} />}
          {(kind === "button" || kind === "interactive") && (
            <>
              {field(kind === "button" ? "Button text" : "Reply title", "text", { maxLength: 256 })}
              {field(kind === "button" ? "Button payload (optional)" : "Reply id (optional)", "payload", { maxLength: 256 })}
            </>
          )}
          {kind === "media" && (
            <>
              <NativeSelect
                aria-label="Media type"
                value={fields.mediaType}
                onChange={(event) => {
                  const mediaType = event.target.value as Fields["mediaType"];
                  setFields((current) => ({ ...current, mediaType, mimeType: DEFAULT_MIME[mediaType] }));
                }}
              >
                {MEDIA_TYPES.map((type) => (
                  <option key={type} value={type}>{type}</option>
                ))}
              </NativeSelect>
              {field("MIME type", "mimeType", { maxLength: 100 })}
              {field("Caption (optional)", "caption", { maxLength: 1024 })}
              {fields.mediaType === "document" && field("File name (optional)", "filename", { maxLength: 240 })}
            </>
          )}
          {kind === "location" && (
            <>
              <div className="grid grid-cols-2 gap-2">
                {field("Latitude", "latitude", { inputMode: "decimal" })}
                {field("Longitude", "longitude", { inputMode: "decimal" })}
              </div>
              {field("Place name (optional)", "name", { maxLength: 1000 })}
              {field("Address (optional)", "address", { maxLength: 1000 })}
            </>
          )}
          {kind === "reaction" && field("Emoji", "emoji", { maxLength: 16 })}
          <Button type="submit" variant="outline" disabled={busy || !body}>Send reply</Button>
        </form>
      </CardContent>
    </Card>
  );
}
