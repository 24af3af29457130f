"use client";

import { Menu } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTitle } from "@/components/ui/dialog";
import { Logo } from "./logo";
import { Nav } from "./nav";
import { UserMenu, type WorkspaceChoice } from "./user-menu";

export function AppShell({
  user,
  workspaceName,
  workspaces,
  children,
}: {
  user: { name: string; email: string; role: string; workspaceId: string };
  workspaceName: string;
  /** Every workspace of the user, for the switch in the account menu. */
  workspaces: WorkspaceChoice[];
  children: React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const sidebar = (onNavigate?: () => void) => (
    <div className="flex h-full flex-col gap-6">
      <div className="px-1.5 pt-1">
        <Logo />
        <p className="mt-1 truncate pl-8 text-xs text-muted-foreground">{workspaceName}</p>
      </div>
      <div className="flex-1">
        <Nav onNavigate={onNavigate} manages={user.role !== "member"} />
      </div>
      <UserMenu name={user.name} email={user.email} workspaces={workspaces} currentWorkspaceId={user.workspaceId} />
    </div>
  );
  return (
    <div className="min-h-dvh md:grid md:grid-cols-[15rem_minmax(0,1fr)]">
      <a
        href="#main-content"
        className="fixed top-2 left-2 z-[60] -translate-y-16 rounded-md bg-primary px-3 py-2 text-sm font-medium text-primary-foreground shadow-md transition-transform focus:translate-y-0 focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:outline-none"
      >
        Skip to content
      </a>
      <aside className="sticky top-0 hidden h-dvh border-r border-sidebar-border bg-sidebar p-3 md:block">{sidebar()}</aside>
      <header className="sticky top-0 z-30 flex items-center justify-between border-b bg-background/90 px-4 py-2.5 backdrop-blur md:hidden">
        <Logo />
        <Button variant="ghost" size="icon" aria-label="Open menu" onClick={() => setOpen(true)}>
          <Menu aria-hidden />
        </Button>
      </header>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="top-0 left-0 h-dvh max-h-dvh w-72 max-w-[calc(100vw-3rem)] translate-x-0 translate-y-0 rounded-none bg-sidebar p-3">
          <DialogTitle className="sr-only">Menu</DialogTitle>
          {sidebar(() => setOpen(false))}
        </DialogContent>
      </Dialog>
      <main id="main-content" tabIndex={-1} className="min-w-0 px-4 py-6 outline-none sm:px-8 sm:py-8">
        <div className="mx-auto max-w-6xl">{children}</div>
      </main>
    </div>
  );
}
