import { Trash2 } from "lucide-react";
import type * as React from "react";
import { useRef } from "react";
import { useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FIELD_TYPES, UPDATE_RULES, type FieldType, type UpdateRule } from "@/lib/campaigns/schemas";
import type { BuilderForm } from "./builder-parts";
import { followedAttribute } from "./field-autofill";
import { FieldFallbacks } from "./field-fallbacks";
import { NativeSelect } from "./native-select";

const TYPE_LABELS: Record<FieldType, string> = {
  string: "Text",
  number: "Number",
  boolean: "Yes / no",
  email: "Email",
  date: "Date",
};

export const UPDATE_RULE_LABELS: Record<UpdateRule, string> = {
  always: "Always",
  when_empty: "Only when empty",
  never: "Never (this message only)",
};

/** A long path typed to its end stays scrolled there; once the box is left, show it from its start. */
export const scrollToStart = (event: React.FocusEvent<HTMLInputElement>) => {
  event.currentTarget.scrollLeft = 0;
};

/**
 * One request field → contact attribute mapping. The attribute follows the field name as it is
 * typed until the user writes their own. A row's problems show once one of its boxes was left (or
 * the form was submitted), in a line whose space is always kept, so nothing moves under the pointer.
 */
export function FieldRow({ form, index, onRemove }: { form: BuilderForm; index: number; onRemove: () => void }) {
  const n = index + 1;
  const fieldPath = `triggerConfig.fields.${index}.field` as const;
  const attributePath = `triggerConfig.fields.${index}.attribute` as const;
  const attributeEdited = useRef(false);
  const attributeFocused = useRef(false);
  const { errors, touchedFields, submitCount } = form.formState;
  const rowErrors = errors.triggerConfig?.fields?.[index];
  const touched = touchedFields.triggerConfig?.fields?.[index];
  const shown = (error: { message?: string; type?: string } | undefined, wasLeft: boolean | undefined) =>
    error && (wasLeft || submitCount > 0 || error.type === "server") ? error.message : undefined;
  const problem = shown(rowErrors?.field, touched?.field) ?? shown(rowErrors?.attribute, touched?.attribute);
  const fieldRegister = form.register(fieldPath);
  const attributeRegister = form.register(attributePath);
  const errorId = `field-row-${index}-problem`;
  const fieldValue = useWatch({ control: form.control, name: fieldPath });

  return (
    <div className="grid gap-1.5 rounded-lg border p-2">
      <div className="flex min-w-0 items-center gap-2">
        <Input
          aria-label={`Request field ${n}`}
          placeholder="customer.first_name"
          className="min-w-0 flex-1 font-mono"
          autoComplete="off"
          title={fieldValue || undefined}
          aria-invalid={problem && rowErrors?.field ? true : undefined}
          aria-describedby={errorId}
          {...fieldRegister}
          onBlur={(event) => {
            scrollToStart(event);
            return fieldRegister.onBlur(event);
          }}
          onChange={async (event) => {
            const previousField = form.getValues(fieldPath) ?? "";
            const attribute = form.getValues(attributePath) ?? "";
            await fieldRegister.onChange(event);
            const next = followedAttribute({
              previousField,
              nextField: event.target.value,
              attribute,
              editedByHand: attributeEdited.current,
              attributeFocused: attributeFocused.current,
            });
            if (next !== null) form.setValue(attributePath, next, { shouldDirty: true, shouldValidate: true });
          }}
        />
        <Button type="button" variant="ghost" size="icon" className="shrink-0" aria-label={`Remove field ${n}`} onClick={onRemove}>
          <Trash2 aria-hidden />
        </Button>
      </div>
      <div className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-2 sm:grid-cols-[auto_minmax(0,1fr)_auto]">
        <span className="hidden text-xs text-muted-foreground sm:inline" aria-hidden>
          saves to
        </span>
        <Input
          aria-label={`Contact attribute ${n}`}
          placeholder="same as the field"
          list="contact-attributes"
          className="min-w-0 font-mono"
          autoComplete="off"
          aria-invalid={problem && !rowErrors?.field && rowErrors?.attribute ? true : undefined}
          aria-describedby={errorId}
          {...attributeRegister}
          onFocus={() => {
            attributeFocused.current = true;
          }}
          onChange={(event) => {
            attributeEdited.current = true;
            return attributeRegister.onChange(event);
          }}
          onBlur={(event) => {
            attributeFocused.current = false;
            scrollToStart(event);
            return attributeRegister.onBlur(event);
          }}
        />
        <NativeSelect aria-label={`Type ${n}`} className="w-28" {...form.register(`triggerConfig.fields.${index}.type`)}>
          {FIELD_TYPES.map((type) => (
            <option key={type} value={type}>
              {TYPE_LABELS[type]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1.5 text-xs text-muted-foreground">
        <label className="flex items-center gap-1.5">
          <input type="checkbox" className="size-4 accent-[var(--primary)]" aria-label={`Required ${n}`} {...form.register(`triggerConfig.fields.${index}.required`)} />
          <span aria-hidden>Required</span>
        </label>
        <label className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span aria-hidden>Update the contact</span>
          <NativeSelect aria-label={`Update the contact ${n}`} className="w-52 [&_select]:h-8 [&_select]:text-xs" {...form.register(`triggerConfig.fields.${index}.update`)}>
            {UPDATE_RULES.map((rule) => (
              <option key={rule} value={rule}>
                {UPDATE_RULE_LABELS[rule]}
              </option>
            ))}
          </NativeSelect>
        </label>
      </div>
      <p id={errorId} role="alert" className="min-h-4 text-xs leading-4 font-medium break-words text-destructive">
        {problem}
      </p>
      <FieldFallbacks form={form} name={`triggerConfig.fields.${index}.fallbacks`} primary={fieldValue ?? ""} />
    </div>
  );
}
