import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { JourneyTotals } from "@/lib/journeys/analytics";

const number = (n: number) => n.toLocaleString("en-US");

/** `5400` → "1 h 30 min"; whole units, the two largest. */
export function formatDuration(seconds: number): string {
  const units: [string, number][] = [
    ["d", 86_400],
    ["h", 3_600],
    ["min", 60],
    ["s", 1],
  ];
  const parts: string[] = [];
  let rest = Math.max(0, Math.round(seconds));
  for (const [label, size] of units) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 && parts.length < 2) parts.push(`${count} ${label}`);
  }
  return parts.length > 0 ? parts.join(" ") : "0 s";
}

/**
 * A journey campaign's runs at a glance: how many are going and how they ended, the conversion
 * rate and the median time to convert. Test runs are not counted.
 */
export function JourneyPanel({ version, totals, hasGoal }: { version: number; totals: JourneyTotals; hasGoal: boolean }) {
  const statuses: [string, number][] = [
    ["Entered", totals.entered],
    ["Active", totals.active],
    ["Waiting", totals.waiting],
    ["Completed", totals.completed],
    ["Exited", totals.exited],
    ["Ended", totals.ended],
    ["Failed", totals.failed],
  ];
  return (
    <Card role="region" aria-labelledby="journey-panel-title">
      <CardHeader>
        <CardTitle id="journey-panel-title" className="text-base">
          Journey
        </CardTitle>
        <CardDescription>
          {version > 0 ? `Version ${version}. ` : "Not published yet. "}Runs by status, test runs not counted.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4 lg:grid-cols-7">
          {statuses.map(([label, value]) => (
            <div key={label} className="grid">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="text-lg font-semibold tabular-nums">{number(value)}</dd>
            </div>
          ))}
        </dl>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:max-w-md">
          <div className="grid">
            <dt className="text-muted-foreground">Conversion rate</dt>
            <dd className="text-lg font-semibold tabular-nums">{hasGoal ? `${(totals.conversionRate * 100).toFixed(1)}%` : "No goal set"}</dd>
          </div>
          <div className="grid">
            <dt className="text-muted-foreground">Median time to convert</dt>
            <dd className="text-lg font-semibold tabular-nums">{totals.medianSecondsToConvert === null ? "—" : formatDuration(totals.medianSecondsToConvert)}</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
