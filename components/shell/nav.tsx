"use client";

import { BellRing, Building2, FileText, Inbox, KeyRound, LayoutTemplate, Megaphone, MessageCircle, MessageSquareText, Reply, ScrollText, UserCog, Users, UsersRound, Webhook } from "lucide-react";
import { usePathname } from "next/navigation";
import { IntentPrefetchLink } from "@/components/ui/intent-prefetch-link";
import { cn } from "@/lib/utils";
import { UnreadBadge, useUnreadConversations } from "./inbox-badge";

const sections = [
  { items: [
    { href: "/inbox", label: "Inbox", icon: Inbox },
    { href: "/campaigns", label: "Campaigns", icon: Megaphone },
    { href: "/templates", label: "Templates", icon: LayoutTemplate },
    { href: "/contacts", label: "Contacts", icon: Users },
    { href: "/logs", label: "Logs", icon: FileText },
  ] },
  { heading: "Settings", items: [
    { href: "/settings/workspace", label: "Workspace", icon: Building2 },
    { href: "/settings/members", label: "Members", icon: UsersRound },
    { href: "/settings/api-keys", label: "API Keys", icon: KeyRound, manage: true },
    { href: "/settings/whatsapp", label: "WhatsApp", icon: MessageCircle, manage: true },
    { href: "/settings/webhooks", label: "Webhooks", icon: Webhook, manage: true },
    { href: "/settings/alerts", label: "Alerts", icon: BellRing, manage: true },
    { href: "/settings/contacts", label: "Opt-out keywords", icon: UserCog },
    { href: "/settings/auto-replies", label: "Auto-replies", icon: Reply },
    { href: "/settings/saved-replies", label: "Saved replies", icon: MessageSquareText },
    { href: "/settings/audit-log", label: "Audit log", icon: ScrollText },
  ] },
];

/** `manages`: the user is an owner or admin; members do not see the settings they cannot change. */
export function Nav({ onNavigate, manages = true }: { onNavigate?: () => void; manages?: boolean }) {
  const pathname = usePathname();
  const unread = useUnreadConversations(pathname);
  return (
    <nav aria-label="Main" className="grid gap-5">
      {sections.map((section, index) => (
        <div key={section.heading ?? index} className="grid gap-0.5">
          {section.heading && <p className="px-2.5 pb-1 text-xs font-medium text-muted-foreground">{section.heading}</p>}
          {section.items.filter((item) => manages || !("manage" in item)).map(({ href, label, icon: Icon }) => {
            const active = pathname === href || pathname.startsWith(`${href}/`);
            return (
              <IntentPrefetchLink
                key={href}
                href={href}
                onClick={onNavigate}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "flex items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm text-sidebar-foreground transition-colors hover:bg-sidebar-accent",
                  active && "bg-sidebar-accent font-medium text-foreground",
                )}
              >
                <Icon className={cn("size-4 text-muted-foreground", active && "text-primary")} aria-hidden />
                {label}
                {href === "/inbox" && <UnreadBadge count={unread} />}
              </IntentPrefetchLink>
            );
          })}
        </div>
      ))}
    </nav>
  );
}
