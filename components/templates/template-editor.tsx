"use client";

import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { NativeSelect } from "@/components/campaigns/native-select";
import { WhatsAppPreview } from "@/components/campaigns/whatsapp-preview";
import { Button } from "@/components/ui/button";
import { FormField, fieldAria } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { requestJson } from "@/lib/http/client";
import {
  TEMPLATE_CATEGORIES,
  TEMPLATE_LIMITS,
  definitionComponents,
  definitionFormat,
  definitionVariables,
  templateDefinitionIssues,
  type DefinitionIssue,
  type TemplateDefinition,
} from "@/lib/templates/definition";
import { previewTemplate } from "@/lib/templates/render";
import { ButtonFields } from "./button-fields";
import { Counter } from "./counter";

const CATEGORY_HINTS: Record<string, string> = {
  MARKETING: "Offers, sales, news: anything promotional. Sent only to contacts who subscribed.",
  UTILITY: "About something the customer did or asked for: orders, deliveries, appointments.",
  AUTHENTICATION: "One-time passcodes.",
};

const EMPTY: TemplateDefinition = { name: "", category: "MARKETING", language: "en_US", header: null, body: "", footer: null, buttons: [], examples: {} };

/** Write a template with WhatsApp's limits checked as you type, see it as a customer would, submit it for review. */
export function TemplateEditor({ businessName }: { businessName: string }) {
  const router = useRouter();
  const [definition, setDefinition] = useState<TemplateDefinition>(EMPTY);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [serverIssues, setServerIssues] = useState<DefinitionIssue[]>([]);

  const issues = useMemo(() => templateDefinitionIssues(definition), [definition]);
  const variables = definitionVariables(definition);
  const shown = (path: string) => attempted || touched.has(path.split(".")[0]!) || touched.has(path);
  const errorAt = (path: string) => [...issues, ...serverIssues].find((issue) => issue.path === path && shown(path))?.message;

  function change(path: string, patch: Partial<TemplateDefinition>) {
    setDefinition((current) => ({ ...current, ...patch }));
    setTouched((current) => new Set(current).add(path));
    setServerIssues([]);
  }

  const preview = useMemo(() => {
    const values: Record<string, string> = {};
    for (const name of definitionVariables(definition)) {
      const example = definition.examples[name];
      if (example) {
        values[`header.${name}`] = example;
        values[`body.${name}`] = example;
      }
    }
    return previewTemplate({ parameterFormat: definitionFormat(definition), components: definitionComponents(definition) }, values);
  }, [definition]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setAttempted(true);
    setServerError(null);
    if (issues.length > 0) return;
    setSubmitting(true);
    const result = await requestJson<{ id: string }>("/api/v1/templates", { method: "POST", body: definition });
    setSubmitting(false);
    if (result.ok) {
      router.push("/templates");
      router.refresh();
      return;
    }
    setServerError(result.problem.detail);
    setServerIssues((result.problem.errors ?? []).map((e) => ({ path: e.path, message: e.message })));
  }

  const nameError = errorAt("name");
  const bodyError = errorAt("body");
  const headerError = errorAt("header");
  const footerError = errorAt("footer");
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <form onSubmit={submit} noValidate className="grid min-w-0 gap-5" aria-label="Template">
        <FormField id="template-name" label="Name" error={nameError} hint="Lowercase letters, digits and underscores, e.g. winter_sale.">
          <Input value={definition.name} onChange={(e) => change("name", { name: e.target.value })} {...fieldAria("template-name", nameError, true)} />
        </FormField>
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField id="template-category" label="Category" hint={CATEGORY_HINTS[definition.category]}>
            <NativeSelect id="template-category" value={definition.category} onChange={(e) => change("category", { category: e.target.value as TemplateDefinition["category"] })}>
              {TEMPLATE_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {category.charAt(0) + category.slice(1).toLowerCase()}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField id="template-language" label="Language" error={errorAt("language")} hint="Meta's code: en, en_US, es, pt_BR…">
            <Input value={definition.language} onChange={(e) => change("language", { language: e.target.value })} {...fieldAria("template-language", errorAt("language"), true)} />
          </FormField>
        </div>
        <FormField id="template-header" label="Header (optional)" error={headerError}>
          <Input
            value={definition.header?.text ?? ""}
            placeholder="No header"
            onChange={(e) => change("header", { header: e.target.value ? { type: "TEXT", text: e.target.value } : null })}
            {...fieldAria("template-header", headerError)}
          />
          <Counter value={definition.header?.text ?? ""} max={TEMPLATE_LIMITS.headerText} />
        </FormField>
        <FormField id="template-body" label="Body" error={bodyError} hint="Variables: {{first_name}} (named) or {{1}}, {{2}} (numbered), not both; never first or last.">
          <Textarea rows={6} value={definition.body} onChange={(e) => change("body", { body: e.target.value })} {...fieldAria("template-body", bodyError, true)} />
          <Counter value={definition.body} max={TEMPLATE_LIMITS.body} />
        </FormField>
        {variables.length > 0 && (
          <fieldset className="grid gap-3">
            <legend className="mb-2 text-sm font-medium">Examples for WhatsApp&apos;s review</legend>
            {variables.map((name) => {
              const id = `example-${name}`;
              const error = errorAt(`examples.${name}`);
              return (
                <FormField key={name} id={id} label={`Example for {{${name}}}`} error={error}>
                  <Input value={definition.examples[name] ?? ""} onChange={(e) => change(`examples.${name}`, { examples: { ...definition.examples, [name]: e.target.value } })} {...fieldAria(id, error)} />
                </FormField>
              );
            })}
          </fieldset>
        )}
        <FormField id="template-footer" label="Footer (optional)" error={footerError}>
          <Input
            value={definition.footer ?? ""}
            placeholder="No footer"
            onChange={(e) => change("footer", { footer: e.target.value ? e.target.value : null })}
            {...fieldAria("template-footer", footerError)}
          />
          <Counter value={definition.footer ?? ""} max={TEMPLATE_LIMITS.footer} />
        </FormField>
        <ButtonFields
          buttons={definition.buttons}
          onChange={(buttons) => change("buttons", { buttons })}
          errors={(index) => errorAt(`buttons.${index}`)}
        />
        {errorAt("buttons") && (
          <p role="alert" className="text-xs font-medium text-destructive">
            {errorAt("buttons")}
          </p>
        )}
        {serverError && (
          <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive">
            {serverError}
          </p>
        )}
        {attempted && issues.length > 0 && (
          <p role="alert" className="text-sm text-destructive">
            Fix the {issues.length === 1 ? "problem" : `${issues.length} problems`} above before submitting.
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={submitting}>
            {submitting ? "Submitting…" : "Submit for review"}
          </Button>
          <Button type="button" variant="outline" onClick={() => router.push("/templates")}>
            Cancel
          </Button>
        </div>
      </form>
      <div className="min-w-0 lg:sticky lg:top-6 lg:self-start">
        <h2 className="mb-2 text-sm font-medium">Preview</h2>
        <WhatsAppPreview preview={definition.body.trim() ? preview : null} businessName={businessName} />
      </div>
    </div>
  );
}
