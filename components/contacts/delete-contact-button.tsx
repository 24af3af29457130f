"use client";

import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import * as React from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";

export function DeleteContactButton({ contactId, phone }: { contactId: string; phone: string }) {
  const router = useRouter();
  const [busy, setBusy] = React.useState(false);
  async function remove() {
    setBusy(true);
    const result = await requestJson(`/api/v1/contacts/${contactId}`, { method: "DELETE" });
    setBusy(false);
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    toast.success(`${phone} deleted.`);
    router.push("/contacts");
  }
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" disabled={busy}><Trash2 aria-hidden />Delete contact</Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete {phone}?</AlertDialogTitle>
          <AlertDialogDescription>
            The contact, its attributes and list memberships are deleted. Its messages stay in the logs.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={remove}>Delete contact</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
