"use client";

import { X } from "lucide-react";
import { NativeSelect } from "@/components/campaigns/native-select";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { LOG_STATUSES } from "@/lib/statuses/messages";
import { humanizeKey, MESSAGE_STATUS_LABELS } from "./format";
import { attributeType, comparesText, CONSENT_STATUS_LABELS, FIELD_LABELS, OP_LABELS, opsFor, takesValue, type ConditionField, type DraftCondition } from "./segment-conditions";
import type { AttributeDefinition, ContactList } from "./types";

/** One condition of the builder: field, operator and a value input that fits the attribute's type. */
export function ConditionRow({
  index,
  draft,
  definitions,
  lists,
  error,
  onChange,
  onRemove,
}: {
  index: number;
  draft: DraftCondition;
  definitions: AttributeDefinition[];
  lists: ContactList[];
  error?: string;
  onChange: (draft: DraftCondition) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  const ops = opsFor(draft, definitions);
  const type = draft.field === "attribute" ? attributeType(draft.key, definitions) : null;

  function setField(field: ConditionField) {
    const next = { ...draft, field, value: field === "opted_out" ? "false" : field === "last_message_status" ? "delivered" : field === "consent" ? "subscribed" : "" };
    next.op = opsFor(next, definitions)[0] ?? "";
    onChange(next);
  }
  function setKey(key: string) {
    const next = { ...draft, key, value: "" };
    const allowed = opsFor(next, definitions);
    if (!allowed.includes(next.op)) next.op = allowed[0] ?? "";
    onChange(next);
  }

  let valueInput: React.ReactNode = null;
  if (draft.field === "attribute" && takesValue(draft.op)) {
    valueInput =
      type === "boolean" ? (
        <NativeSelect aria-label={`Value of condition ${n}`} value={draft.value} onChange={(event) => onChange({ ...draft, value: event.target.value })} className="min-w-28 flex-1">
          <option value="">Choose…</option>
          <option value="true">Yes (true)</option>
          <option value="false">No (false)</option>
        </NativeSelect>
      ) : (
        <Input
          aria-label={`Value of condition ${n}`}
          type={type === "date" ? "date" : "text"}
          inputMode={type === "number" ? "decimal" : undefined}
          value={draft.value}
          onChange={(event) => onChange({ ...draft, value: event.target.value })}
          className="min-w-32 flex-1"
        />
      );
  } else if (draft.field === "list") {
    valueInput = (
      <NativeSelect aria-label={`List of condition ${n}`} value={draft.listId} onChange={(event) => onChange({ ...draft, listId: event.target.value })} className="min-w-40 flex-1">
        <option value="">Choose a list…</option>
        {lists.map((list) => (
          <option key={list.id} value={list.id}>{list.name}</option>
        ))}
      </NativeSelect>
    );
  } else if (draft.field === "opted_out") {
    valueInput = (
      <NativeSelect aria-label={`Value of condition ${n}`} value={draft.value} onChange={(event) => onChange({ ...draft, value: event.target.value })} className="min-w-40 flex-1">
        <option value="false">is opted in</option>
        <option value="true">is opted out</option>
      </NativeSelect>
    );
  } else if (draft.field === "consent") {
    valueInput = (
      <NativeSelect aria-label={`Consent status of condition ${n}`} value={draft.value} onChange={(event) => onChange({ ...draft, value: event.target.value })} className="min-w-32 flex-1">
        {Object.entries(CONSENT_STATUS_LABELS).map(([status, label]) => (
          <option key={status} value={status}>{label}</option>
        ))}
      </NativeSelect>
    );
  } else if (draft.field === "created_at") {
    valueInput = <Input aria-label={`Date of condition ${n}`} type="date" value={draft.value} onChange={(event) => onChange({ ...draft, value: event.target.value })} className="min-w-36 flex-1" />;
  } else if (draft.field === "last_message_status") {
    valueInput = (
      <NativeSelect aria-label={`Status of condition ${n}`} value={draft.value} onChange={(event) => onChange({ ...draft, value: event.target.value })} className="min-w-32 flex-1">
        {LOG_STATUSES.map((status) => (
          <option key={status} value={status}>{MESSAGE_STATUS_LABELS[status] ?? status}</option>
        ))}
      </NativeSelect>
    );
  }

  return (
    <li className="grid gap-1.5 rounded-lg border bg-background p-3" aria-label={`Condition ${n}`}>
      <div className="flex flex-wrap items-center gap-2">
        <NativeSelect aria-label={`Field of condition ${n}`} value={draft.field} onChange={(event) => setField(event.target.value as ConditionField)} className="min-w-36">
          {(Object.keys(FIELD_LABELS) as ConditionField[]).map((field) => (
            <option key={field} value={field} disabled={field === "attribute" && definitions.length === 0}>{FIELD_LABELS[field]}</option>
          ))}
        </NativeSelect>
        {draft.field === "attribute" && (
          <NativeSelect aria-label={`Attribute of condition ${n}`} value={draft.key} onChange={(event) => setKey(event.target.value)} className="min-w-36">
            {definitions.map((definition) => (
              <option key={definition.key} value={definition.key}>{humanizeKey(definition.key)}</option>
            ))}
          </NativeSelect>
        )}
        {ops.length > 0 && (
          <NativeSelect aria-label={`Operator of condition ${n}`} value={draft.op} onChange={(event) => onChange({ ...draft, op: event.target.value })} className="min-w-32">
            {ops.map((op) => (
              <option key={op} value={op}>{OP_LABELS[op] ?? op}</option>
            ))}
          </NativeSelect>
        )}
        {valueInput}
        <Button type="button" variant="ghost" size="icon" aria-label={`Remove condition ${n}`} onClick={onRemove} className="ml-auto">
          <X aria-hidden />
        </Button>
      </div>
      {comparesText(draft, definitions) && (
        <div className="flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
          <label className="flex items-center gap-2 font-medium text-foreground">
            <input type="checkbox" checked={draft.matchCase} onChange={(event) => onChange({ ...draft, matchCase: event.target.checked })} aria-label={`Match case in condition ${n}`} />
            Match case
          </label>
          <span>{draft.matchCase ? "Only the exact text matches." : "Ignores capitals and surrounding spaces: “Madrid” also matches “ madrid ”."}</span>
        </div>
      )}
      {error && <p className="text-xs font-medium text-destructive">{error}</p>}
    </li>
  );
}
