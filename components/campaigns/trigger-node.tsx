import { Lock, Plus, Webhook } from "lucide-react";
import { useMemo } from "react";
import { useFieldArray, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { nullIfEmpty, usableTrigger } from "@/lib/campaigns/editor";
import { samplePayload } from "@/lib/campaigns/sample";
import { newTriggerField, PHONE_ATTRIBUTE } from "@/lib/campaigns/schemas";
import type { FieldError } from "@/lib/http/errors";
import { applyCapturedMapping, ListenForRequest } from "./requests/listen-dialog";
import { FieldFallbacks } from "./field-fallbacks";
import { CheckList, NodeBadge, type BuilderForm } from "./builder-parts";
import { FieldRow } from "./field-row";

/** Step 1: which request fields the webhook reads and the contact attribute each one saves to. */
export function TriggerNode({ form, checks, knownAttributes }: { form: BuilderForm; checks: FieldError[]; knownAttributes: string[] }) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "triggerConfig.fields" });
  const trigger = useWatch({ control: form.control, name: "triggerConfig" });
  const errors = form.formState.errors.triggerConfig;
  const phoneTouched = form.formState.touchedFields.triggerConfig?.phoneField || form.formState.submitCount > 0;
  const phoneProblem = errors?.phoneField && (phoneTouched || errors.phoneField.type === "server") ? errors.phoneField.message : undefined;
  const countryTouched = form.formState.touchedFields.triggerConfig?.countryField || form.formState.submitCount > 0;
  const countryProblem = errors?.countryField && (countryTouched || errors.countryField.type === "server") ? errors.countryField.message : undefined;
  const example = useMemo(() => samplePayload(usableTrigger(trigger)), [trigger]);
  const captured = trigger?.example != null;

  return (
    <Card className="gap-4 border-l-4 border-l-primary" aria-labelledby="trigger-node-title" role="group">
      <CardHeader>
        <div className="flex items-start gap-3">
          <NodeBadge step={1} icon={<Webhook />} />
          <div>
            <CardTitle id="trigger-node-title">Trigger: your system calls the webhook</CardTitle>
            <CardDescription className="mt-1">
              Choose which fields of the JSON request body Sendstream reads, and where each one is saved on the contact.
            </CardDescription>
          </div>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-2 rounded-lg border bg-muted/30 p-3">
          <div className="grid items-end gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto]">
            <div className="grid gap-1.5">
              <label htmlFor="phone-field" className="text-xs font-medium">
                Phone number field
              </label>
              <Input
                id="phone-field"
                className="font-mono"
                placeholder="customer.phone"
                aria-invalid={phoneProblem ? true : undefined}
                aria-describedby="phone-field-hint"
                {...form.register("triggerConfig.phoneField")}
              />
            </div>
            <div className="grid gap-1.5">
              <span className="text-xs font-medium">Saves to</span>
              <div className="flex h-9 items-center gap-1.5 rounded-md border border-dashed px-3 font-mono text-sm text-muted-foreground">
                <Lock className="size-3.5" aria-hidden /> {PHONE_ATTRIBUTE}
              </div>
            </div>
            <span className="pb-2 text-xs text-muted-foreground">Always required</span>
          </div>
          <p id="phone-field-hint" className="text-xs text-muted-foreground">
            The recipient&apos;s WhatsApp number in international format, e.g. <code className="font-mono">+14155552671</code>. A path reaches into nested
            objects: <code className="font-mono">customer.phone</code>, <code className="font-mono">line_items[0].title</code>. This mapping cannot be removed.
          </p>
          <p role="alert" className="min-h-4 text-xs leading-4 font-medium break-words text-destructive">
            {phoneProblem}
          </p>
          <FieldFallbacks form={form} name="triggerConfig.phoneFallbacks" primary={trigger?.phoneField ?? ""} />
          <div className="grid gap-1.5 sm:max-w-[calc(50%-0.375rem)]">
            <label htmlFor="country-field" className="text-xs font-medium">
              Country code field <span className="font-normal text-muted-foreground">(optional)</span>
            </label>
            <Input
              id="country-field"
              className="font-mono"
              placeholder="shipping_address.country_code"
              autoComplete="off"
              aria-invalid={countryProblem ? true : undefined}
              aria-describedby="country-field-hint country-field-problem"
              {...form.register("triggerConfig.countryField", { setValueAs: nullIfEmpty })}
            />
            <p id="country-field-hint" className="text-xs text-muted-foreground">
              Where the body holds a 2-letter country code such as <code className="font-mono">US</code>: a phone number without + is read as a number of
              that country. Empty: such numbers are refused.
            </p>
            <p id="country-field-problem" role="alert" className="min-h-4 text-xs leading-4 font-medium break-words text-destructive">
              {countryProblem}
            </p>
          </div>
        </div>

        <div className="grid gap-2">
          <datalist id="contact-attributes">
            {knownAttributes
              .filter((a) => a !== PHONE_ATTRIBUTE)
              .map((attribute) => (
                <option key={attribute} value={attribute} />
              ))}
          </datalist>
          {fields.map((row, index) => (
            <FieldRow key={row.id} form={form} index={index} onRemove={() => remove(index)} />
          ))}
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => append(newTriggerField(), { shouldFocus: true })}
            >
              <Plus aria-hidden /> Add field
            </Button>
            <ListenForRequest
              mappedFields={(trigger?.fields ?? []).map((f) => f.field)}
              phoneField={trigger?.phoneField ?? ""}
              onConfirm={(mapping) => applyCapturedMapping(form, mapping, append)}
            />
            <span className="text-xs text-muted-foreground">e.g. the customer&apos;s name or the order number. Other fields in the request are ignored.</span>
          </div>
          {errors?.fields?.root?.message && <p className="text-xs font-medium text-destructive">{errors.fields.root.message}</p>}
        </div>

        <div className="flex items-start gap-3 rounded-lg border p-3">
          <input
            id="respect-opt-out"
            type="checkbox"
            role="switch"
            className="mt-0.5 size-4 accent-[var(--primary)]"
            aria-describedby="respect-opt-out-hint"
            {...form.register("respectOptOut")}
          />
          <div className="grid gap-0.5">
            <label htmlFor="respect-opt-out" className="text-sm font-medium">
              Skip contacts who opted out
            </label>
            <p id="respect-opt-out-hint" className="text-xs text-muted-foreground">
              On: a request for a contact who replied STOP (or was opted out) is answered and logged as <em>skipped</em>, and nothing is sent. Turn it
              off only for messages the contact must get, such as order or security notices.
            </p>
          </div>
        </div>

        <details className="group rounded-lg border">
          <summary className="cursor-pointer px-3 py-2 text-sm font-medium select-none">
            Example request body{captured ? " (captured from a test request)" : ""}
          </summary>
          {captured && (
            <div className="border-t px-3 py-2">
              <Button
                type="button"
                variant="ghost"
                size="sm"
                className="h-7 px-2 text-xs"
                onClick={() => form.setValue("triggerConfig.example", null, { shouldDirty: true, shouldValidate: true })}
              >
                Use an example built from the fields instead
              </Button>
            </div>
          )}
          <pre className="overflow-x-auto border-t bg-muted/40 px-3 py-2 font-mono text-xs" data-testid="sample-payload">
            {JSON.stringify(example, null, 2)}
          </pre>
        </details>
        <CheckList checks={checks} />
      </CardContent>
    </Card>
  );
}
