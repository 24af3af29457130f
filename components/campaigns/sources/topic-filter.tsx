"use client";

import { Plus, X } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { SourceKind } from "@/lib/sources/kinds";

const MAX_TOPIC_LENGTH = 200;

const EXAMPLES: Partial<Record<SourceKind, string>> = {
  shopify: "orders/create",
  woocommerce: "order.created",
  stripe: "checkout.session.completed",
  standard_webhooks: "order.created",
};

/** The topics a signed source takes; empty takes every topic. */
export function TopicFilter({
  kind,
  topics,
  disabled,
  onChange,
}: {
  kind: SourceKind;
  topics: string[];
  disabled?: boolean;
  onChange: (topics: string[]) => void;
}) {
  const [draft, setDraft] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const where = kind === "shopify" || kind === "woocommerce" ? "the topic header" : "the body's type";

  function add() {
    const topic = draft.trim();
    if (!topic) return;
    if (topic.length > MAX_TOPIC_LENGTH || /\s/.test(topic)) {
      setProblem(`A topic is one word without spaces, at most ${MAX_TOPIC_LENGTH} characters.`);
      return;
    }
    setProblem(null);
    setDraft("");
    if (!topics.includes(topic)) onChange([...topics, topic]);
  }

  return (
    <div className="grid gap-2">
      <label htmlFor="source-topic" className="text-xs font-medium">
        Topics this campaign takes
      </label>
      {topics.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label="Topics">
          {topics.map((topic) => (
            <li key={topic} className="flex items-center gap-1 rounded-full border bg-muted/50 py-0.5 pr-1 pl-2.5 font-mono text-xs">
              {topic}
              <button
                type="button"
                disabled={disabled}
                onClick={() => onChange(topics.filter((t) => t !== topic))}
                aria-label={`Remove topic ${topic}`}
                className="rounded-full p-0.5 text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:outline-none disabled:opacity-50"
              >
                <X className="size-3.5" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-muted-foreground">Every topic is taken. Add one to ignore the others.</p>
      )}
      <div className="flex gap-2">
        <Input
          id="source-topic"
          value={draft}
          disabled={disabled}
          placeholder={EXAMPLES[kind]}
          className="font-mono"
          aria-describedby="source-topic-hint"
          aria-invalid={problem ? true : undefined}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              add();
            }
          }}
        />
        <Button type="button" variant="outline" onClick={add} disabled={disabled || !draft.trim()}>
          <Plus aria-hidden /> Add topic
        </Button>
      </div>
      <p id="source-topic-hint" className="text-xs text-muted-foreground">
        Read from {where}. A call with another topic is answered 202 “ignored”, logged, and sends nothing.
      </p>
      {problem && (
        <p role="alert" className="text-xs font-medium text-destructive">
          {problem}
        </p>
      )}
    </div>
  );
}
