"use client";

import { AlertCircle, Check, CheckCheck, Clock, FileText, Image as ImageIcon, Lock, MapPin, Mic, MousePointerClick, Music, Smile, Sticker, Video } from "lucide-react";
import type { LucideIcon } from "lucide-react";
import { LocalTime } from "@/components/ui/local-time";
import { STATUS_LABELS } from "@/lib/logs/format";
import type { LogStatus } from "@/lib/statuses/messages";
import { cn } from "@/lib/utils";
import type { TimelineItem } from "./types";

type Outbound = Extract<TimelineItem, { direction: "outbound" }>;
type Inbound = Extract<TimelineItem, { direction: "inbound" }>;
type Event = Extract<TimelineItem, { direction: "internal" }>;

export function TimelineEntry({ item }: { item: TimelineItem }) {
  if (item.direction === "outbound") return <OutboundMessage message={item} />;
  if (item.direction === "inbound") return <InboundMessage message={item} />;
  return item.kind === "note" ? <Note event={item} /> : <EventLine event={item} />;
}

const TICKS: Record<LogStatus, { icon: LucideIcon; className: string }> = {
  queued: { icon: Clock, className: "text-muted-foreground" },
  sent: { icon: Check, className: "text-muted-foreground" },
  delivered: { icon: CheckCheck, className: "text-muted-foreground" },
  read: { icon: CheckCheck, className: "text-sky-700" },
  failed: { icon: AlertCircle, className: "text-destructive" },
  skipped: { icon: AlertCircle, className: "text-[oklch(0.45_0.1_70)]" },
};

function StatusTick({ status }: { status: LogStatus }) {
  const { icon: Icon, className } = TICKS[status];
  return (
    <span data-testid="message-status" className={cn("inline-flex items-center gap-0.5", className)}>
      <Icon className="size-3.5" aria-hidden />
      {STATUS_LABELS[status]}
    </span>
  );
}

function OutboundMessage({ message }: { message: Outbound }) {
  const by = message.author?.name ?? (message.campaignName ? `Campaign · ${message.campaignName}` : message.source === "reply" ? (message.automatic ? "Auto-reply" : "Reply through the API") : "Sendstream");
  return (
    <li className="flex justify-end" data-direction="outbound">
      <div className="max-w-[85%] sm:max-w-[70%]">
        <div className="rounded-2xl rounded-br-md bg-primary/10 px-3.5 py-2 text-sm text-foreground">
          {message.template && <p className="mb-1 text-xs font-medium text-primary">Template · {message.template.name}</p>}
          <p className="whitespace-pre-wrap break-words">{message.text}</p>
        </div>
        <p className="mt-1 flex flex-wrap items-center justify-end gap-x-2 text-xs text-muted-foreground">
          <span className="truncate">{by}</span>
          <LocalTime iso={message.createdAt} />
          <StatusTick status={message.status} />
        </p>
        {message.error && message.status === "failed" && <p className="mt-0.5 text-right text-xs text-destructive">{message.error.reason}</p>}
      </div>
    </li>
  );
}

const MEDIA_ICONS: Record<string, LucideIcon> = { image: ImageIcon, video: Video, audio: Music, voice: Mic, document: FileText, sticker: Sticker };

function InboundContent({ message }: { message: Inbound }) {
  switch (message.kind) {
    case "text":
      return <p className="whitespace-pre-wrap break-words">{message.text}</p>;
    case "button":
    case "interactive":
      return (
        <p className="flex items-center gap-1.5">
          <MousePointerClick className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          <span>
            <span className="text-muted-foreground">{message.kind === "button" ? "Tapped " : "Chose "}</span>
            <span className="font-medium">{message.text ?? message.payload}</span>
          </span>
        </p>
      );
    case "media": {
      const media = message.media;
      const Icon = MEDIA_ICONS[media?.kind ?? ""] ?? FileText;
      const src = `/api/media/${message.id}`;
      return (
        <div className="grid gap-1.5">
          {(media?.kind === "image" || media?.kind === "sticker") && (
            <a href={src} target="_blank" rel="noreferrer" className="block w-fit overflow-hidden rounded-lg border">
              {/* eslint-disable-next-line @next/next/no-img-element -- the contact's media, served by our own route with the session */}
              <img src={src} alt={media.caption ? `Image: ${media.caption}` : "Image the contact sent"} loading="lazy" className="max-h-60 max-w-full object-contain" />
            </a>
          )}
          <div className="flex items-center gap-3 rounded-lg border border-dashed border-muted-foreground/30 bg-muted/40 p-3">
            <div className="flex size-10 shrink-0 items-center justify-center rounded-md bg-muted">
              <Icon className="size-5 text-muted-foreground" aria-hidden />
            </div>
            <div className="min-w-0 text-xs">
              <p className="font-medium capitalize">{media?.kind ?? "Media"}</p>
              <p className="truncate text-muted-foreground">{[media?.mimeType, media?.filename].filter(Boolean).join(" · ") || "No details"}</p>
              <a href={src} download={media?.filename ?? undefined} className="text-primary underline-offset-4 hover:underline">
                Download<span className="sr-only"> the {media?.kind ?? "media"}</span>
              </a>
            </div>
          </div>
          {media?.caption && <p className="whitespace-pre-wrap break-words">{media.caption}</p>}
        </div>
      );
    }
    case "location": {
      const place = message.location;
      if (!place) return <p>Location</p>;
      return (
        <p className="flex items-start gap-1.5">
          <MapPin className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
          <span>
            {place.name && <span className="block font-medium">{place.name}</span>}
            {place.address && <span className="block">{place.address}</span>}
            <a
              className="text-xs text-primary underline-offset-4 hover:underline"
              href={`https://www.openstreetmap.org/?mlat=${place.latitude}&mlon=${place.longitude}#map=16/${place.latitude}/${place.longitude}`}
              target="_blank"
              rel="noreferrer"
            >
              {place.latitude}, {place.longitude}
            </a>
          </span>
        </p>
      );
    }
    case "reaction":
      return (
        <p className="flex items-center gap-1.5">
          <Smile className="size-4 text-muted-foreground" aria-hidden />
          {message.reaction?.emoji ? (
            <span>
              Reacted <span className="text-base">{message.reaction.emoji}</span> to a message
            </span>
          ) : (
            <span className="text-muted-foreground">Removed a reaction</span>
          )}
        </p>
      );
    default:
      return <p className="text-muted-foreground">A kind of message WhatsApp does not let us show.</p>;
  }
}

function InboundMessage({ message }: { message: Inbound }) {
  return (
    <li className="flex justify-start" data-direction="inbound">
      <div className="max-w-[85%] sm:max-w-[70%]">
        <div className="rounded-2xl rounded-bl-md border bg-background px-3.5 py-2 text-sm shadow-xs">
          <InboundContent message={message} />
        </div>
        <p className="mt-1 flex flex-wrap gap-x-2 text-xs text-muted-foreground">
          <LocalTime iso={message.receivedAt} />
          {message.campaignName && <span className="truncate">answers {message.campaignName}</span>}
        </p>
      </div>
    </li>
  );
}

function Note({ event }: { event: Event }) {
  return (
    <li className="flex justify-center" data-direction="internal">
      <div className="w-full max-w-[85%] rounded-lg border border-warning/40 bg-warning/10 px-3.5 py-2 text-sm sm:max-w-[70%]">
        <p className="mb-1 flex items-center gap-1 text-xs font-medium text-[oklch(0.42_0.1_70)]">
          <Lock className="size-3" aria-hidden />
          Internal note · {event.actor?.name ?? "A member"} · <LocalTime iso={event.createdAt} />
        </p>
        <p className="whitespace-pre-wrap break-words">{event.body}</p>
      </div>
    </li>
  );
}

function EventLine({ event }: { event: Event }) {
  const who = event.actor?.name ?? (event.kind === "reopened" ? "A new message" : "Someone");
  const what =
    event.kind === "assigned"
      ? event.assignee && event.actor && event.assignee.id === event.actor.id
        ? `${who} assigned it to themselves`
        : `${who} assigned it to ${event.assignee?.name ?? "a member"}`
      : event.kind === "unassigned"
        ? `${who} unassigned it`
        : event.kind === "closed"
          ? `${who} closed the conversation`
          : `${who} reopened the conversation`;
  return (
    <li className="flex items-center gap-3 py-1 text-xs text-muted-foreground" data-direction="internal">
      <span className="h-px flex-1 bg-border" aria-hidden />
      <span className="text-center">
        {what} · <LocalTime iso={event.createdAt} />
      </span>
      <span className="h-px flex-1 bg-border" aria-hidden />
    </li>
  );
}
