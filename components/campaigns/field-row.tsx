import { Trash2 } from "lucide-react";
import type * as React from "react";
import { useRef } from "react";
import { useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FIELD_TYPES, UPDATE_RULES, type FieldType, type UpdateRule } from "@/lib/campaigns/schemas";
import { cn } from "@/lib/utils";
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

/** Columns of the trigger node's field rows (and their header). */
export const FIELD_ROW_COLUMNS = "sm:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_7rem_5rem_2.25rem]";

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
    <div className="grid gap-0.5">
      <div className={cn("grid grid-cols-2 items-center gap-2", FIELD_ROW_COLUMNS)}>
        <Input
          aria-label={`Request field ${n}`}
          placeholder="customer.first_name"
          className="col-span-2 font-mono sm:col-span-1"
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
        <Input
          aria-label={`Contact attribute ${n}`}
          placeholder="same as the field"
          list="contact-attributes"
          className="font-mono"
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
        <NativeSelect aria-label={`Type ${n}`} {...form.register(`triggerConfig.fields.${index}.type`)}>
          {FIELD_TYPES.map((type) => (
            <option key={type} value={type}>
              {TYPE_LABELS[type]}
            </option>
          ))}
        </NativeSelect>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="size-4 accent-[var(--primary)]" aria-label={`Required ${n}`} {...form.register(`triggerConfig.fields.${index}.required`)} />
          <span className="sm:sr-only">Required</span>
        </label>
        <Button type="button" variant="ghost" size="icon" aria-label={`Remove field ${n}`} onClick={onRemove}>
          <Trash2 aria-hidden />
        </Button>
      </div>
      <p id={errorId} role="alert" className="min-h-4 text-xs leading-4 font-medium break-words text-destructive">
        {problem}
      </p>
      <label className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
        <span aria-hidden>Update the contact</span>
        <NativeSelect aria-label={`Update the contact ${n}`} className="w-52 [&_select]:h-8 [&_select]:text-xs" {...form.register(`triggerConfig.fields.${index}.update`)}>
          {UPDATE_RULES.map((rule) => (
            <option key={rule} value={rule}>
              {UPDATE_RULE_LABELS[rule]}
            </option>
          ))}
        </NativeSelect>
      </label>
      <FieldFallbacks form={form} name={`triggerConfig.fields.${index}.fallbacks`} primary={fieldValue ?? ""} />
    </div>
  );
}
