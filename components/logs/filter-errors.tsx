import { CircleAlert } from "lucide-react";
import Link from "next/link";

/** Filters in the URL that do not parse (a hand-edited link, an expired cursor). */
export function FilterErrors({ errors, clearHref }: { errors: { path: string; message: string }[]; clearHref: string }) {
  return (
    <div role="alert" className="flex gap-3 rounded-xl border border-destructive/30 bg-destructive/5 p-4 text-sm">
      <CircleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
      <div className="grid gap-1.5">
        <p className="font-medium">These filters cannot be applied</p>
        <ul className="list-disc pl-5 text-muted-foreground">
          {errors.map((error, index) => (
            <li key={index}>
              <span className="font-medium text-foreground">{error.path || "filters"}</span>: {error.message}
            </li>
          ))}
        </ul>
        <Link href={clearHref} className="w-fit text-primary underline-offset-4 hover:underline">
          Clear filters
        </Link>
      </div>
    </div>
  );
}
