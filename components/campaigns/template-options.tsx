import type { TemplateView } from "@/lib/templates/service";
import { templateStatusLabel } from "./status-badge";

/**
 * The options of a template picker (the campaign builder's message node, a journey's send step):
 * approved templates to choose, the others listed as not available yet, disabled except the one
 * already chosen (a template rejected after it was picked stays shown).
 */
export function TemplateOptions({ templates, chosenId }: { templates: readonly TemplateView[]; chosenId: string | null }) {
  const approved = templates.filter((t) => t.status === "APPROVED");
  const others = templates.filter((t) => t.status !== "APPROVED");
  return (
    <>
      <option value="">Choose an approved template…</option>
      {approved.length > 0 && (
        <optgroup label="Approved">
          {approved.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} · {t.language} · {t.category.toLowerCase()}
            </option>
          ))}
        </optgroup>
      )}
      {others.length > 0 && (
        <optgroup label="Not available yet">
          {others.map((t) => (
            <option key={t.id} value={t.id} disabled={t.id !== chosenId}>
              {t.name} · {t.language} — {templateStatusLabel(t.status)}
            </option>
          ))}
        </optgroup>
      )}
    </>
  );
}
