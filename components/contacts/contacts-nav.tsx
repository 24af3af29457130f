"use client";

import { usePathname } from "next/navigation";
import { IntentPrefetchLink } from "@/components/ui/intent-prefetch-link";
import { cn } from "@/lib/utils";

const tabs = [
  { href: "/contacts", label: "All contacts", exact: true },
  { href: "/contacts/lists", label: "Lists" },
  { href: "/contacts/segments", label: "Segments" },
  { href: "/contacts/imports", label: "Imports" },
];

/** Sub-navigation between the contacts, their lists, segments and imports. */
export function ContactsNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Contacts sections" className="-mt-2 mb-6 flex gap-1 overflow-x-auto border-b">
      {tabs.map((tab) => {
        const active = tab.exact ? pathname === tab.href : pathname === tab.href || pathname.startsWith(`${tab.href}/`);
        return (
          <IntentPrefetchLink
            key={tab.href}
            href={tab.href}
            aria-current={active ? "page" : undefined}
            className={cn(
              "-mb-px shrink-0 border-b-2 border-transparent px-3 py-2 text-sm text-muted-foreground transition-colors hover:text-foreground",
              active && "border-primary font-medium text-foreground",
            )}
          >
            {tab.label}
          </IntentPrefetchLink>
        );
      })}
    </nav>
  );
}
