"use client";

import { Check, ChevronsUpDown, LogOut } from "lucide-react";
import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";

export interface WorkspaceChoice {
  id: string;
  name: string;
  role: string;
}


export function UserMenu({
  name,
  email,
  workspaces = [],
  currentWorkspaceId,
}: {
  name: string;
  email: string;
  /** Every workspace of the user; the menu offers a switch when there is more than one. */
  workspaces?: WorkspaceChoice[];
  currentWorkspaceId?: string;
}) {
  const router = useRouter();
  /** Moves the session to another of the user's workspaces, then renders everything again for it. */
  async function switchTo(workspaceId: string) {
    const result = await requestJson("/api/workspaces/switch", { method: "POST", body: { workspaceId } });
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    router.push("/campaigns");
    router.refresh();
  }
  const initials = name
    .split(/\s+/)
    .map((part) => part[0])
    .join("")
    .slice(0, 2)
    .toUpperCase();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="flex w-full items-center gap-2.5 rounded-md p-1.5 text-left text-sm outline-none hover:bg-sidebar-accent focus-visible:ring-[3px] focus-visible:ring-ring"
      >
        <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary/10 text-xs font-semibold text-primary">{initials || "?"}</span>
        <span className="min-w-0 flex-1">
          <span className="sr-only">Account menu: </span>
          <span className="block truncate font-medium">{name}</span>
          <span className="block truncate text-xs text-muted-foreground">{email}</span>
        </span>
        <ChevronsUpDown className="size-4 text-muted-foreground" aria-hidden />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" side="top" className="w-60">
        <DropdownMenuLabel className="text-xs text-muted-foreground">Signed in as {email}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {workspaces.length > 1 && (
          <>
            <DropdownMenuLabel className="text-xs text-muted-foreground">Workspaces</DropdownMenuLabel>
            {workspaces.map((workspace) => (
              <DropdownMenuItem
                key={workspace.id}
                aria-current={workspace.id === currentWorkspaceId ? "true" : undefined}
                onSelect={() => workspace.id !== currentWorkspaceId && void switchTo(workspace.id)}
              >
                <Check aria-hidden className={workspace.id === currentWorkspaceId ? "" : "invisible"} />
                <span className="min-w-0 flex-1 truncate">{workspace.name}</span>
                <span className="text-xs text-muted-foreground">{workspace.role}</span>
              </DropdownMenuItem>
            ))}
            <DropdownMenuSeparator />
          </>
        )}
        <DropdownMenuItem onSelect={() => signOut({ callbackUrl: "/sign-in" })}>
          <LogOut aria-hidden />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
