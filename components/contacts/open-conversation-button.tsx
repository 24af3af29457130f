"use client";

import { MessagesSquare } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";

/** Opens the contact's conversation on the default number in the inbox, starting one if there is none (to write first, with a template). */
export function OpenConversationButton({ contactId }: { contactId: string }) {
  const router = useRouter();
  const [opening, setOpening] = useState(false);

  async function open() {
    setOpening(true);
    const result = await requestJson<{ id: string }>("/api/v1/conversations", { method: "POST", body: { contact: contactId } });
    if (!result.ok) {
      setOpening(false);
      toast.error(result.problem.detail);
      return;
    }
    router.push(`/inbox/${result.data.id}`);
  }

  return (
    <Button type="button" variant="outline" onClick={open} disabled={opening}>
      <MessagesSquare aria-hidden /> {opening ? "Opening…" : "Conversation"}
    </Button>
  );
}
