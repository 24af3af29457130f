"use client";

import { Check, Copy, TriangleAlert } from "lucide-react";
import type * as React from "react";
import { useEffect, useRef, useState } from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { toast } from "@/components/ui/toaster";

/** The words of one reveal: what the secret is, and what losing it means. */
export interface RevealTexts {
  title: string;
  description: React.ReactNode;
  /** The label of the field holding the secret, e.g. "API key". */
  label: string;
  warning: React.ReactNode;
  confirmTitle: string;
  confirmDescription: string;
}

/**
 * Shows a newly made secret once. It lives only in the `secret` prop: once the dialog has finished
 * closing, `onClosed` lets the owner drop the last copy in the browser; the server cannot show it
 * again. Closing with Escape, a click outside or × before the secret was copied asks first.
 */
export function RevealOnceDialog({
  secret,
  texts,
  open,
  onDone,
  onClosed,
}: {
  secret: string | null;
  texts: RevealTexts;
  open: boolean;
  onDone: () => void;
  /** Runs once the dialog has closed; receives the close event so the owner can move focus. */
  onClosed: (event: Event) => void;
}) {
  const [copiedOnce, setCopiedOnce] = useState(false);
  const [confirming, setConfirming] = useState(false);

  function requestClose() {
    if (confirming) return;
    if (copiedOnce) onDone();
    else setConfirming(true);
  }

  function closed(event: Event) {
    setCopiedOnce(false);
    setConfirming(false);
    onClosed(event);
  }

  return (
    <>
      <Dialog open={open && secret !== null} onOpenChange={(next) => !next && requestClose()}>
        <DialogContent onCloseAutoFocus={closed} className="max-w-xl">
          {secret && <RevealBody secret={secret} texts={texts} onCopied={() => setCopiedOnce(true)} onDone={onDone} />}
        </DialogContent>
      </Dialog>
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{texts.confirmTitle}</AlertDialogTitle>
            <AlertDialogDescription>{texts.confirmDescription}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Back to the key</AlertDialogCancel>
            <AlertDialogAction
              variant="default"
              onClick={() => {
                setConfirming(false);
                onDone();
              }}
            >
              Yes, close
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

function RevealBody({ secret, texts, onCopied, onDone }: { secret: string; texts: RevealTexts; onCopied: () => void; onDone: () => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      onCopied();
    } catch {
      inputRef.current?.select();
      toast.error(`Could not copy automatically. The ${texts.label.toLowerCase()} is selected: press Ctrl+C (⌘C on a Mac).`);
    }
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>{texts.title}</DialogTitle>
        <DialogDescription>{texts.description}</DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor="revealed-secret">{texts.label}</Label>
        <div className="flex gap-2">
          <Input
            id="revealed-secret"
            ref={inputRef}
            readOnly
            value={secret}
            spellCheck={false}
            autoComplete="off"
            onFocus={(event) => event.currentTarget.select()}
            onCopy={onCopied}
            className="font-mono text-[13px]"
          />
          <Button type="button" variant="outline" onClick={copy} className="w-24">
            {copied ? <Check aria-hidden className="text-emerald-600" /> : <Copy aria-hidden />}
            {copied ? "Copied" : "Copy"}
          </Button>
        </div>
        <p className="sr-only" aria-live="polite">
          {copied ? `${texts.label} copied to the clipboard` : ""}
        </p>
      </div>
      <div role="note" className="flex gap-3 rounded-md border border-amber-300/70 bg-amber-50 px-3 py-2.5 text-sm text-amber-900 dark:border-amber-500/40 dark:bg-amber-950/40 dark:text-amber-200">
        <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
        <p>{texts.warning}</p>
      </div>
      <DialogFooter>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </DialogFooter>
    </>
  );
}
