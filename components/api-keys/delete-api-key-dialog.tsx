"use client";

import { Loader2 } from "lucide-react";
import { useState } from "react";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-field";
import type { ApiKeyListItem } from "@/lib/api-keys/schemas";
import { requestJson } from "@/lib/http/client";

/** Confirms and performs a delete; `onDeleted` runs once the key no longer works (or was already gone). */
export function DeleteApiKeyDialog({
  apiKey,
  onClose,
  onDeleted,
  onCloseAutoFocus,
}: {
  apiKey: ApiKeyListItem | null;
  onClose: () => void;
  onDeleted: (key: ApiKeyListItem) => void;
  /** Cancel returns focus to the Delete button that opened the dialog; after a delete the owner decides. */
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();

  function changeOpen(open: boolean) {
    if (open || pending) return;
    setError(undefined);
    onClose();
  }

  async function confirm() {
    if (!apiKey) return;
    setPending(true);
    setError(undefined);
    const result = await requestJson(`/api/keys/${encodeURIComponent(apiKey.id)}`, { method: "DELETE" });
    setPending(false);
    // 404: deleted meanwhile (another tab or teammate); either way the key no longer works.
    if (result.ok || result.status === 404) {
      onDeleted(apiKey);
      return;
    }
    setError(result.problem.detail);
  }

  return (
    <AlertDialog open={apiKey !== null} onOpenChange={changeOpen}>
      <AlertDialogContent onCloseAutoFocus={onCloseAutoFocus}>
        {apiKey && (
          <>
            <AlertDialogHeader>
              <AlertDialogTitle className="break-words">Delete “{apiKey.name}”?</AlertDialogTitle>
              <AlertDialogDescription>
                Integrations using this key (<span className="font-mono">{apiKey.displayKey}</span>) will get{" "}
                <strong className="font-medium text-foreground">401 Unauthorized</strong> errors from their next request. This cannot
                be undone.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <FormError>{error}</FormError>
            <AlertDialogFooter>
              <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
              <Button variant="destructive" onClick={confirm} disabled={pending}>
                {pending && <Loader2 className="animate-spin" aria-hidden />}
                Delete key
              </Button>
            </AlertDialogFooter>
          </>
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
}
