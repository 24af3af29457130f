"use client";

import { useState } from "react";
import { RevealOnceDialog } from "@/components/ui/reveal-once-dialog";

/** Shows an endpoint's signing secret once, after it was added or its secret rolled. */
export function RevealSigningSecretDialog({ secret, onDone }: { secret: string | null; onDone: () => void }) {
  const [closing, setClosing] = useState(false);
  return (
    <RevealOnceDialog
      secret={secret}
      open={secret !== null && !closing}
      onDone={() => setClosing(true)}
      onClosed={() => {
        setClosing(false);
        onDone();
      }}
      texts={{
        title: "Save the signing secret",
        description: "Your receiver uses it to check that each event came from Sendstream (the webhook-signature header).",
        label: "Signing secret",
        warning: "This secret will not be shown again. If you lose it, roll a new one from the endpoint's page; the old one stops working at once.",
        confirmTitle: "Have you saved the secret?",
        confirmDescription: "It will not be shown again. Without it your receiver cannot verify events until you roll a new secret.",
      }}
    />
  );
}
