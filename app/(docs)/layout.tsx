import Link from "next/link";
import { ArrowLeft, FileJson } from "lucide-react";
import { Logo } from "@/components/shell/logo";
import { Button } from "@/components/ui/button";

/** Public documentation: no sign-in, its own slim header with a way back to the app. */
export default function DocsLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="min-h-dvh bg-background">
      <header className="sticky top-0 z-30 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
        <div className="mx-auto flex h-14 max-w-[90rem] items-center gap-3 px-4 sm:px-6">
          <Link href="/" className="rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none" aria-label="Sendstream home">
            <Logo />
          </Link>
          <span className="hidden h-5 w-px bg-border sm:block" aria-hidden />
          <span className="hidden text-sm font-medium text-muted-foreground sm:block">API reference</span>
          {/* Tight on a 390 px phone: the OpenAPI link drops its icon there so "Back to app" fits. */}
          <nav aria-label="Documentation" className="ml-auto flex items-center gap-1 sm:gap-2">
            <Button asChild variant="ghost" size="sm">
              <a href="/api/v1/openapi.json">
                <FileJson aria-hidden className="max-sm:hidden" />
                OpenAPI
              </a>
            </Button>
            <Button asChild variant="outline" size="sm">
              <Link href="/campaigns">
                <ArrowLeft aria-hidden />
                Back to app
              </Link>
            </Button>
          </nav>
        </div>
      </header>
      {children}
    </div>
  );
}
