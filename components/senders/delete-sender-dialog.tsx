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
import { Label } from "@/components/ui/label";
import { requestJson } from "@/lib/http/client";
import type { SenderResource } from "@/lib/senders/collection";

type Sender = Pick<SenderResource, "id" | "name" | "isDefault">;

/**
 * Confirms a delete. The default sender needs a replacement (it becomes the default); for any other
 * one a replacement is optional and takes its campaigns over: without one, a sender campaigns use
 * is refused and the answer names them.
 */
export function DeleteSenderDialog({
  sender,
  others,
  onClose,
  onDeleted,
}: {
  sender: Sender | null;
  others: Sender[];
  onClose: () => void;
  onDeleted: (sender: Sender) => void;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const [replacement, setReplacement] = useState("");

  function changeOpen(open: boolean) {
    if (open || pending) return;
    setError(undefined);
    setReplacement("");
    onClose();
  }

  async function confirm() {
    if (!sender) return;
    if (sender.isDefault && !replacement) {
      setError("Choose the sender that becomes the default.");
      return;
    }
    setPending(true);
    setError(undefined);
    const query = replacement ? `?replacement=${encodeURIComponent(replacement)}` : "";
    const result = await requestJson(`/api/v1/senders/${encodeURIComponent(sender.id)}${query}`, { method: "DELETE" });
    setPending(false);
    if (result.ok || result.status === 404) {
      setReplacement("");
      onDeleted(sender);
      return;
    }
    setError(result.problem.detail);
  }

  return (
    <AlertDialog open={sender !== null} onOpenChange={changeOpen}>
      <AlertDialogContent>
        {sender && (
          <>
            <AlertDialogHeader>
              <AlertDialogTitle className="break-words">Delete “{sender.name}”?</AlertDialogTitle>
              <AlertDialogDescription>
                Messages still queued for it fail with the reason “sender changed” and can be resent from the logs. Its past sends keep counting
                for its business account&apos;s daily limit. This cannot be undone.
              </AlertDialogDescription>
            </AlertDialogHeader>
            {others.length > 0 ? (
              <div className="grid gap-2">
                <Label htmlFor="delete-sender-replacement">{sender.isDefault ? "New default sender" : "Move its campaigns to"}</Label>
                <select
                  id="delete-sender-replacement"
                  value={replacement}
                  onChange={(event) => setReplacement(event.target.value)}
                  className="h-9 rounded-md border border-input bg-transparent px-3 text-sm"
                >
                  <option value="">{sender.isDefault ? "Choose a sender" : "Keep them (refused if campaigns use it)"}</option>
                  {others.map((other) => (
                    <option key={other.id} value={other.id}>
                      {other.name}
                    </option>
                  ))}
                </select>
              </div>
            ) : (
              <p className="text-sm text-muted-foreground">This is the workspace&apos;s only sender: add another one before deleting it.</p>
            )}
            <FormError>{error}</FormError>
            <AlertDialogFooter>
              <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
              <Button variant="destructive" onClick={() => void confirm()} disabled={pending || others.length === 0}>
                {pending && <Loader2 className="animate-spin" aria-hidden />}
                Delete sender
              </Button>
            </AlertDialogFooter>
          </>
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
}
