import { CornerDownRight, Plus, X } from "lucide-react";
import { useState } from "react";
import { useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { MAX_FIELD_FALLBACKS } from "@/lib/campaigns/schemas";
import type { BuilderForm } from "./builder-parts";

type FallbacksName = "triggerConfig.phoneFallbacks" | `triggerConfig.fields.${number}.fallbacks`;

/**
 * The ordered fallback paths of a request field (or of the phone): read one after the other when
 * the field itself is missing, null or empty. Each box is labelled with the path it stands in for.
 */
export function FieldFallbacks({ form, name, primary }: { form: BuilderForm; name: FallbacksName; primary: string }) {
  const list = (useWatch({ control: form.control, name }) as string[] | undefined) ?? [];
  const [left, setLeft] = useState<Set<number>>(() => new Set());
  const [added, setAdded] = useState<number | null>(null);
  const { errors, submitCount } = form.formState;
  const errorAt = (index: number): { message?: string; type?: string } | undefined => {
    const at = name === "triggerConfig.phoneFallbacks" ? errors.triggerConfig?.phoneFallbacks : errors.triggerConfig?.fields?.[Number(name.split(".")[2])]?.fallbacks;
    return (at as ({ message?: string; type?: string } | undefined)[] | undefined)?.[index];
  };
  const set = (next: string[]) => form.setValue(name, next, { shouldDirty: true, shouldValidate: true });
  const subject = primary.trim() || "this field";

  return (
    <div className="grid gap-1.5">
      {list.map((value, index) => {
        const n = index + 1;
        const error = errorAt(index);
        const problem = error && (left.has(index) || submitCount > 0 || error.type === "server") ? error.message : undefined;
        const errorId = `${name}-${index}-problem`;
        return (
          <div key={index} className="grid gap-0.5">
            <div className="flex min-w-0 items-center gap-2">
              <CornerDownRight className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
              <Input
                aria-label={`Fallback ${n} for ${subject}`}
                placeholder="shipping_address.phone"
                className="h-8 min-w-0 flex-1 font-mono text-sm"
                autoComplete="off"
                autoFocus={added === index}
                value={value}
                aria-invalid={problem ? true : undefined}
                aria-describedby={errorId}
                onChange={(event) => set(list.map((v, i) => (i === index ? event.target.value : v)))}
                title={value || undefined}
                onBlur={(event) => {
                  event.currentTarget.scrollLeft = 0;
                  setLeft((s) => new Set(s).add(index));
                }}
              />
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="size-8 shrink-0"
                aria-label={`Remove fallback ${n} for ${subject}`}
                onClick={() => set(list.filter((_, i) => i !== index))}
              >
                <X aria-hidden />
              </Button>
            </div>
            <p id={errorId} role="alert" className="min-h-4 pl-5.5 text-xs leading-4 font-medium break-words text-destructive">
              {problem}
            </p>
          </div>
        );
      })}
      {list.length < MAX_FIELD_FALLBACKS && (
        <div>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className="h-7 px-2 text-xs"
            aria-label={`Add fallback for ${subject}`}
            onClick={() => {
              setAdded(list.length);
              set([...list, ""]);
            }}
          >
            <Plus aria-hidden /> Add fallback
          </Button>
        </div>
      )}
    </div>
  );
}
