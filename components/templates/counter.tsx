import { cn } from "@/lib/utils";

/** "12 / 60": characters used of a limit, red past it. */
export function Counter({ value, max, id }: { value: string; max: number; id?: string }) {
  const used = [...value].length;
  return (
    <p id={id} className={cn("text-right text-xs tabular-nums", used > max ? "font-medium text-destructive" : "text-muted-foreground")}>
      {used} / {max}
    </p>
  );
}
