"use client";

import { AlertTriangle, ChevronLeft, ChevronRight } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { requestJson } from "@/lib/http/client";
import type { TemplatePreview } from "@/lib/templates/render";
import { WhatsAppPreview } from "../whatsapp-preview";
import type { AudienceSelection, PreviewAnswer } from "./types";
import { useDebounced } from "./use-debounced";

const number = (n: number) => n.toLocaleString("en-US");

export interface PreviewRequest {
  audience: AudienceSelection;
  templateId: string | null;
  messageConfig: { variables: { key: string; attribute: string | null; fallback: string | null }[] };
}

/** The preview's `rendered` member as the chat bubble shows it (plain text or the template's parts). */
export function toTemplatePreview(rendered: unknown): TemplatePreview | null {
  if (typeof rendered === "string") return { header: null, body: rendered, footer: null, buttons: [] };
  if (rendered && typeof rendered === "object") {
    const value = rendered as Partial<TemplatePreview> & { text?: string };
    if (typeof value.body === "string") {
      return { header: value.header ?? null, body: value.body, footer: value.footer ?? null, buttons: Array.isArray(value.buttons) ? value.buttons : [] };
    }
    if (typeof value.text === "string") return { header: null, body: value.text, footer: null, buttons: [] };
  }
  return null;
}

/** Steps through real contacts of the audience, each message rendered by the server exactly as it would be sent. */
export function PreviewStepper({
  request,
  businessName,
  excludeEmpty,
  onExcludeEmptyChange,
  onCounts,
  disabled,
}: {
  request: PreviewRequest;
  businessName: string;
  excludeEmpty: boolean;
  onExcludeEmptyChange: (exclude: boolean) => void;
  /** Per variable key, the audience's contacts without a value (undefined until known): the message node's warnings read it. */
  onCounts?: (emptyByVariable: Record<string, number> | undefined) => void;
  disabled?: boolean;
}) {
  const settled = useDebounced(request, 400);
  // The position belongs to one selection: a new audience, template or mapping starts again at its first contact.
  const baseKey = JSON.stringify(settled);
  const [position, setPosition] = useState({ baseKey, index: 0 });
  const index = position.baseKey === baseKey ? position.index : 0;
  const setIndex = (next: number) => setPosition({ baseKey, index: next });
  const [answer, setAnswer] = useState<{ key: string; data?: PreviewAnswer; error?: string } | null>(null);
  // A "Send again" draft's audience is contacts chosen one by one: an audience too.
  const ready = Boolean(settled.templateId) && settled.audience.listIds.length + settled.audience.segmentIds.length + (settled.audience.contactIds?.length ?? 0) > 0;
  const key = JSON.stringify({ ...settled, index });

  useEffect(() => {
    if (!ready) return;
    const controller = new AbortController();
    requestJson<PreviewAnswer>("/api/v1/campaigns/preview", { method: "POST", body: { ...JSON.parse(key) }, signal: controller.signal }).then((result) => {
      if (controller.signal.aborted) return;
      setAnswer(result.ok ? { key, data: result.data } : { key, error: result.problem.detail });
    });
    return () => controller.abort();
  }, [key, ready]);

  // While the next answer loads, the previous one stays (no flicker).
  const data = ready ? answer?.data : undefined;
  const total = data?.total ?? 0;
  const shown = Math.min(index, Math.max(total - 1, 0));
  const preview = data?.rendered ? toTemplatePreview(data.rendered.preview) : null;
  const emptyCount = data?.contactsWithEmptyVariables ?? 0;
  const emptyByVariable = data?.contactsWithEmptyVariable;
  const countsKey = emptyByVariable ? JSON.stringify(emptyByVariable) : "";
  useEffect(() => {
    onCounts?.(countsKey ? (JSON.parse(countsKey) as Record<string, number>) : undefined);
    // `countsKey` stands for the counts; the callback is the builder's state setter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [countsKey]);

  return (
    <section className="grid gap-3" aria-labelledby="bulk-preview-title">
      <div className="flex items-center justify-between gap-2">
        <h2 id="bulk-preview-title" className="text-sm font-semibold">
          Preview for real contacts
        </h2>
        <div className="flex items-center gap-1">
          <Button type="button" variant="outline" size="icon" className="size-8" aria-label="Previous contact" disabled={!data || shown === 0} onClick={() => setIndex(shown - 1)}>
            <ChevronLeft aria-hidden />
          </Button>
          <span className="min-w-16 text-center text-xs text-muted-foreground tabular-nums" aria-live="polite" data-testid="preview-position">
            {data && total > 0 ? `${number(shown + 1)} of ${number(total)}` : "—"}
          </span>
          <Button type="button" variant="outline" size="icon" className="size-8" aria-label="Next contact" disabled={!data || shown >= total - 1} onClick={() => setIndex(shown + 1)}>
            <ChevronRight aria-hidden />
          </Button>
        </div>
      </div>
      <p className="min-h-5 truncate text-xs text-muted-foreground" data-testid="preview-contact">
        {!ready
          ? "Choose an audience and a template to see real messages."
          : answer?.error && answer.key === key
            ? <span className="text-destructive">{answer.error}</span>
            : data?.contact
              ? <>To <span className="font-medium text-foreground">{data.contact.name ?? "(no name)"}</span> · {data.contact.phone}</>
              : data
                ? "This audience has no contacts yet."
                : "Loading…"}
      </p>
      <WhatsAppPreview preview={ready ? preview : null} businessName={businessName} />
      {data && data.emptyVariables.length > 0 && (
        <p className="flex items-start gap-1.5 text-xs text-amber-700">
          <AlertTriangle className="mt-0.5 size-3.5 shrink-0" aria-hidden />
          For this contact {data.emptyVariables.join(", ")} {data.emptyVariables.length === 1 ? "comes" : "come"} out empty.
        </p>
      )}
      {data && (
        <div className="grid gap-1.5 rounded-lg border p-3 text-sm" data-testid="empty-variables">
          <p>
            {emptyCount === 0 ? (
              "Every contact in the audience has a value for every blank."
            ) : (
              <>
                <strong className="font-semibold tabular-nums">{number(emptyCount)}</strong> {emptyCount === 1 ? "contact has" : "contacts have"} blanks that would
                come out empty.
              </>
            )}
          </p>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-[var(--primary)]"
              checked={excludeEmpty}
              disabled={disabled}
              onChange={(event) => onExcludeEmptyChange(event.target.checked)}
            />
            Leave out contacts with empty blanks
          </label>
        </div>
      )}
    </section>
  );
}
