import Link from "next/link";
import { cn } from "@/lib/utils";

export interface SenderChoice {
  id: string;
  name: string;
  isDefault: boolean;
}

/** Which number's templates the page lists, as links (works without JavaScript); shown only with several numbers. */
export function SenderSwitch({ senders, selectedId }: { senders: SenderChoice[]; selectedId: string }) {
  if (senders.length < 2) return null;
  return (
    <nav aria-label="WhatsApp number" className="mb-4 flex flex-wrap gap-2">
      {senders.map((sender) => {
        const current = sender.id === selectedId;
        return (
          <Link
            key={sender.id}
            href={sender.isDefault ? "/templates" : `/templates?sender=${encodeURIComponent(sender.id)}`}
            aria-current={current ? "page" : undefined}
            className={cn(
              "rounded-full border px-3 py-1 text-sm transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
              current ? "border-primary bg-primary text-primary-foreground" : "bg-card hover:bg-accent",
            )}
          >
            {sender.name}
            {sender.isDefault && <span className={cn("text-xs", current ? "opacity-80" : "text-muted-foreground")}> (default)</span>}
          </Link>
        );
      })}
    </nav>
  );
}
