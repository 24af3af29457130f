"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import type { AutoReplyView } from "@/lib/inbound/auto-replies";

export interface AutoReplySender {
  id: string;
  name: string;
  /** Approved templates this number can send, with their variable keys. */
  templates: { id: string; name: string; language: string; variables: string[] }[];
}

/** Adds an auto-reply: number, keyword, and a text or template answer. */
export function AutoReplyForm({ senders, onCreated }: { senders: AutoReplySender[]; onCreated: (rule: AutoReplyView) => void }) {
  const [senderId, setSenderId] = useState(senders[0]?.id ?? "");
  const [keyword, setKeyword] = useState("");
  const [type, setType] = useState<"text" | "template">("text");
  const [text, setText] = useState("");
  const [templateId, setTemplateId] = useState("");
  const [variables, setVariables] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const sender = senders.find((candidate) => candidate.id === senderId);
  const template = sender?.templates.find((candidate) => candidate.id === templateId);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    const reply = type === "text" ? { type, text } : { type, templateId, variables };
    const result = await requestJson<AutoReplyView>("/api/auto-replies", { method: "POST", body: { senderId, keyword, reply } });
    setSaving(false);
    if (!result.ok) {
      setErrors(Object.fromEntries((result.problem.errors ?? []).map((error) => [error.path, error.message])));
      if (!result.problem.errors?.length) toast.error(result.problem.detail);
      return;
    }
    onCreated(result.data);
    setKeyword("");
    setText("");
    toast.success(`${result.data.keyword} is answered automatically`);
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        {senders.length > 1 && (
          <FormField id="auto-reply-sender" label="Number" error={errors.senderId}>
            <Select value={senderId} onValueChange={setSenderId}>
              <SelectTrigger id="auto-reply-sender">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {senders.map((candidate) => (
                  <SelectItem key={candidate.id} value={candidate.id}>
                    {candidate.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </FormField>
        )}
        <FormField id="auto-reply-keyword" label="Keyword or button payload" error={errors.keyword} hint="The whole message, any case: HOURS matches “hours?”.">
          <Input id="auto-reply-keyword" value={keyword} maxLength={64} className="uppercase" onChange={(event) => setKeyword(event.target.value)} aria-invalid={errors.keyword ? true : undefined} />
        </FormField>
        <FormField id="auto-reply-type" label="Answer with">
          <Select value={type} onValueChange={(value) => setType(value as "text" | "template")}>
            <SelectTrigger id="auto-reply-type">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="text">A text</SelectItem>
              <SelectItem value="template">A template</SelectItem>
            </SelectContent>
          </Select>
        </FormField>
      </div>
      {type === "text" ? (
        <FormField id="auto-reply-text" label="Answer" error={errors["reply.text"]}>
          <Textarea id="auto-reply-text" value={text} maxLength={4096} rows={3} onChange={(event) => setText(event.target.value)} aria-invalid={errors["reply.text"] ? true : undefined} />
        </FormField>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="auto-reply-template" label="Template" error={errors["reply.templateId"]} hint={sender?.templates.length ? undefined : "This number has no approved template yet."}>
            <Select
              value={templateId}
              onValueChange={(value) => {
                setTemplateId(value);
                setVariables({});
              }}
            >
              <SelectTrigger id="auto-reply-template">
                <SelectValue placeholder="Choose a template" />
              </SelectTrigger>
              <SelectContent>
                {(sender?.templates ?? []).map((candidate) => (
                  <SelectItem key={candidate.id} value={candidate.id}>
                    {candidate.name} ({candidate.language})
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </FormField>
          {template?.variables.map((key) => (
            <FormField key={key} id={`auto-reply-variable-${key}`} label={`Value of ${key}`} error={errors[`reply.variables.${key}`]}>
              <Input id={`auto-reply-variable-${key}`} value={variables[key] ?? ""} onChange={(event) => setVariables((current) => ({ ...current, [key]: event.target.value }))} />
            </FormField>
          ))}
        </div>
      )}
      <div>
        <Button type="submit" disabled={saving || !senderId}>
          {saving ? "Adding…" : "Add auto-reply"}
        </Button>
      </div>
    </form>
  );
}
