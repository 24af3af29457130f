"use client";

import type { CreatedApiKey } from "@/lib/api-keys/schemas";
import { RevealOnceDialog } from "@/components/ui/reveal-once-dialog";

/** Shows a newly created API key once (see RevealOnceDialog). */
export function RevealApiKeyDialog({
  created,
  open,
  onDone,
  onClosed,
}: {
  created: CreatedApiKey | null;
  open: boolean;
  onDone: () => void;
  onClosed: (event: Event) => void;
}) {
  return (
    <RevealOnceDialog
      secret={created?.key ?? null}
      open={open}
      onDone={onDone}
      onClosed={onClosed}
      texts={{
        title: "Save your API key",
        description: `“${created?.name ?? ""}” is ready. Copy the key now and store it in your integration’s secret settings.`,
        label: "API key",
        warning:
          "This key will not be shown again. Anyone who has it can trigger your campaigns, so keep it secret. If you lose it, delete it and create a new one.",
        confirmTitle: "Have you saved this key?",
        confirmDescription: "It will not be shown again. Without it you would have to delete the key and create a new one.",
      }}
    />
  );
}
