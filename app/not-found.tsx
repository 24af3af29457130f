import Link from "next/link";
import { Button } from "@/components/ui/button";

export default function NotFound() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-3 px-6 text-center">
      <p className="text-sm font-medium text-primary">404</p>
      <h1 className="text-2xl font-semibold tracking-tight">This page does not exist</h1>
      <p className="text-sm text-muted-foreground">It may have been moved, or the link is mistyped.</p>
      <Button asChild className="mt-4">
        <Link href="/">Back to Sendstream</Link>
      </Button>
    </main>
  );
}
