"use client";

import { Info, Send } from "lucide-react";
import * as React from "react";
import { NativeSelect } from "@/components/campaigns/native-select";
import { useApi } from "@/components/contacts/use-api";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { ProblemMessage, useSend } from "./send";
import type { PublicConversation, ReplyTemplate } from "./types";

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

const variableLabel = (variable: ReplyTemplate["variables"][number]) =>
  variable.media
    ? `Header ${variable.name} URL`
    : variable.component === "button"
      ? `Button ${(variable.buttonIndex ?? 0) + 1} {{${variable.name}}}`
      : `${variable.component === "header" ? "Header" : "Body"} {{${variable.name}}}`;

/** Outside the 24-hour window: only an approved template of the conversation's number, every variable filled. */
export function TemplateComposer({ conversation, onSent }: { conversation: PublicConversation; onSent: () => void }) {
  const templates = useApi<{ data: ReplyTemplate[] }>(`/api/v1/templates?senderId=${encodeURIComponent(conversation.sender.id)}`);
  const approved = React.useMemo(() => (templates.data?.data ?? []).filter((template) => template.status.toUpperCase() === "APPROVED"), [templates.data]);
  const [templateId, setTemplateId] = React.useState("");
  const [values, setValues] = React.useState<Record<string, string>>({});
  const { busy, problem, send } = useSend(`/api/v1/conversations/${conversation.id}/replies`, onSent);
  const template = approved.find((candidate) => candidate.id === templateId);
  const body = template?.components.find((component) => String(component.type).toUpperCase() === "BODY")?.text ?? "";
  const preview = body.replace(PLACEHOLDER, (whole, name: string) => values[`body.${name}`]?.trim() || whole);
  const optedOutMarketing = conversation.contact.optedOut && template?.category.toUpperCase() === "MARKETING";
  const missing = template ? template.variables.some((variable) => !values[variable.key]?.trim()) : true;

  return (
    <form
      className="grid gap-2"
      onSubmit={async (event) => {
        event.preventDefault();
        if (template && (await send({ type: "template", templateId: template.id, variables: values }))) {
          setTemplateId("");
          setValues({});
        }
      }}
    >
      <p className="flex items-start gap-1.5 rounded-md bg-muted px-3 py-2 text-xs text-muted-foreground">
        <Info className="mt-px size-3.5 shrink-0" aria-hidden />
        <span>
          WhatsApp allows free-form messages only within 24 hours of the customer&apos;s last message.{" "}
          {conversation.window.endsAt ? "That window has closed" : "This contact has not written yet"}: send an approved template to restart the conversation.
        </span>
      </p>
      <ProblemMessage problem={problem} />
      {templates.problem && <p className="text-sm text-destructive">{templates.problem.detail}</p>}
      <NativeSelect
        aria-label="Template"
        value={templateId}
        onChange={(event) => {
          setTemplateId(event.target.value);
          setValues({});
        }}
        disabled={templates.loading}
      >
        <option value="">{templates.loading ? "Loading templates…" : approved.length ? "Choose a template" : "No approved templates for this number"}</option>
        {approved.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name} · {option.language} · {option.category.toLowerCase()}
          </option>
        ))}
      </NativeSelect>
      {template && (
        <>
          {template.variables.length > 0 && (
            <div className="grid gap-2 sm:grid-cols-2">
              {template.variables.map((variable) => (
                <Input
                  key={variable.key}
                  aria-label={variableLabel(variable)}
                  placeholder={`${variableLabel(variable)}${variable.example ? ` — e.g. ${variable.example}` : ""}`}
                  value={values[variable.key] ?? ""}
                  onChange={(event) => setValues((previous) => ({ ...previous, [variable.key]: event.target.value }))}
                />
              ))}
            </div>
          )}
          {body && (
            <p className="rounded-md border bg-primary/5 px-3 py-2 text-sm whitespace-pre-wrap" aria-label="Preview">
              {preview}
            </p>
          )}
          {optedOutMarketing && <p className="text-sm text-destructive">This contact opted out of marketing: pick a utility template.</p>}
        </>
      )}
      <div className="flex justify-end">
        <Button type="submit" size="sm" disabled={busy || !template || missing || optedOutMarketing}>
          <Send aria-hidden />
          {busy ? "Sending…" : "Send template"}
        </Button>
      </div>
    </form>
  );
}
