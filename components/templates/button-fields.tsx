"use client";

import { Trash2 } from "lucide-react";
import { NativeSelect } from "@/components/campaigns/native-select";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { TEMPLATE_LIMITS, type ButtonType, type TemplateButton } from "@/lib/templates/definition";
import { Counter } from "./counter";

const LABELS: Record<ButtonType, string> = { QUICK_REPLY: "Quick reply", URL: "Link", PHONE_NUMBER: "Call", COPY_CODE: "Copy code" };

function blank(type: ButtonType): TemplateButton {
  switch (type) {
    case "QUICK_REPLY":
      return { type, text: "" };
    case "URL":
      return { type, text: "", url: "https://", example: "" };
    case "PHONE_NUMBER":
      return { type, text: "", phoneNumber: "+" };
    case "COPY_CODE":
      return { type, example: "" };
  }
}

/** The buttons of a template: add one of each kind, edit its fields, remove it; errors per button. */
export function ButtonFields({ buttons, onChange, errors }: { buttons: TemplateButton[]; onChange: (next: TemplateButton[]) => void; errors: (index: number) => string | undefined }) {
  const update = (index: number, patch: Partial<TemplateButton>) => onChange(buttons.map((b, i) => (i === index ? ({ ...b, ...patch } as TemplateButton) : b)));
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 text-sm font-medium">Buttons (optional, at most {TEMPLATE_LIMITS.buttons})</legend>
      {buttons.map((button, index) => {
        const id = `button-${index}`;
        const error = errors(index);
        return (
          <div key={index} className="grid gap-2 rounded-lg border p-3" role="group" aria-label={`Button ${index + 1}: ${LABELS[button.type]}`}>
            <div className="flex items-center justify-between gap-2">
              <p className="text-sm font-medium">{LABELS[button.type]}</p>
              <Button type="button" variant="ghost" size="icon" aria-label={`Remove button ${index + 1}`} onClick={() => onChange(buttons.filter((_, i) => i !== index))}>
                <Trash2 aria-hidden />
              </Button>
            </div>
            {button.type !== "COPY_CODE" && (
              <div className="grid gap-1">
                <Label htmlFor={`${id}-text`}>Label</Label>
                <Input id={`${id}-text`} value={button.text} onChange={(e) => update(index, { text: e.target.value })} aria-invalid={Boolean(error) || undefined} />
                <Counter value={button.text} max={TEMPLATE_LIMITS.buttonText} />
              </div>
            )}
            {button.type === "URL" && (
              <>
                <div className="grid gap-1">
                  <Label htmlFor={`${id}-url`}>Web address (may end with one variable, e.g. {"{{1}}"})</Label>
                  <Input id={`${id}-url`} value={button.url} onChange={(e) => update(index, { url: e.target.value })} />
                </div>
                {/\{\{[^{}]*\}\}/.test(button.url) && (
                  <div className="grid gap-1">
                    <Label htmlFor={`${id}-example`}>Example full address</Label>
                    <Input id={`${id}-example`} value={button.example ?? ""} onChange={(e) => update(index, { example: e.target.value })} />
                  </div>
                )}
              </>
            )}
            {button.type === "PHONE_NUMBER" && (
              <div className="grid gap-1">
                <Label htmlFor={`${id}-phone`}>Phone number with country code</Label>
                <Input id={`${id}-phone`} value={button.phoneNumber} inputMode="tel" onChange={(e) => update(index, { phoneNumber: e.target.value })} />
              </div>
            )}
            {button.type === "COPY_CODE" && (
              <div className="grid gap-1">
                <Label htmlFor={`${id}-code`}>Example code</Label>
                <Input id={`${id}-code`} value={button.example} onChange={(e) => update(index, { example: e.target.value })} />
                <Counter value={button.example} max={TEMPLATE_LIMITS.copyCode} />
              </div>
            )}
            {error && (
              <p role="alert" className="text-xs font-medium text-destructive">
                {error}
              </p>
            )}
          </div>
        );
      })}
      <div className="grid gap-1 sm:max-w-xs">
        <Label htmlFor="add-button">Add a button</Label>
        <NativeSelect
          id="add-button"
          value=""
          disabled={buttons.length >= TEMPLATE_LIMITS.buttons}
          onChange={(e) => {
            if (e.target.value) onChange([...buttons, blank(e.target.value as ButtonType)]);
          }}
        >
          <option value="">Choose a kind…</option>
          {(Object.keys(LABELS) as ButtonType[]).map((type) => (
            <option key={type} value={type}>
              {LABELS[type]}
            </option>
          ))}
        </NativeSelect>
      </div>
    </fieldset>
  );
}
