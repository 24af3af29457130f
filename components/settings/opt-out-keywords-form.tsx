"use client";

import { Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import type { OptOutKeywordsView } from "@/lib/contacts/opt-out-keywords";
import { requestJson } from "@/lib/http/client";

interface Row {
  key: number;
  value: string;
}

let nextKey = 0;
const rowsOf = (keywords: string[]): Row[] => keywords.map((value) => ({ key: nextKey++, value }));

/** The workspace's own opt-out keywords, saved as a whole list. */
export function OptOutKeywordsForm({ initial }: { initial: OptOutKeywordsView }) {
  const [rows, setRows] = useState<Row[]>(() => rowsOf(initial.keywords));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const update = (key: number, value: string) => setRows((current) => current.map((row) => (row.key === key ? { ...row, value } : row)));

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    const keywords = rows.map((row) => row.value).filter((value) => value.trim() !== "");
    const result = await requestJson<OptOutKeywordsView>("/api/workspace/opt-out-keywords", { method: "PUT", body: { keywords } });
    setSaving(false);
    if (!result.ok) {
      // Paths index the list that was sent (blank rows left out).
      const sent = rows.filter((row) => row.value.trim() !== "");
      const byRow: Record<string, string> = {};
      for (const error of result.problem.errors ?? []) {
        const index = /^keywords\[(\d+)\]/.exec(error.path)?.[1];
        const row = index === undefined ? undefined : sent[Number(index)];
        byRow[row ? String(row.key) : "list"] = error.message;
      }
      setErrors(byRow);
      toast.error(result.problem.detail);
      return;
    }
    setRows(rowsOf(result.data.keywords));
    toast.success("Opt-out keywords saved");
  }

  return (
    <form onSubmit={save} noValidate>
      <Card>
        <CardHeader>
          <CardTitle>Opt-out keywords</CardTitle>
          <CardDescription>
            When a contact replies with exactly one of these words (any case), they are opted out and never receive bulk messages, nor trigger messages
            of campaigns that respect opt-outs.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="grid gap-1.5 text-sm">
            <p className="flex flex-wrap items-center gap-1.5">
              <span className="text-muted-foreground">Always opt out:</span>
              {initial.builtIn.map((keyword) => (
                <Badge key={keyword} variant="secondary">
                  {keyword}
                </Badge>
              ))}
            </p>
            <p className="flex flex-wrap items-center gap-1.5">
              <span className="text-muted-foreground">Opts back in:</span>
              {initial.optIn.map((keyword) => (
                <Badge key={keyword} variant="success">
                  {keyword}
                </Badge>
              ))}
            </p>
          </div>
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Your keywords</legend>
            {rows.length === 0 && <p className="text-sm text-muted-foreground">None yet. Add words your contacts use, such as ARRET or BAJA.</p>}
            {rows.map((row, index) => {
              const error = errors[String(row.key)];
              return (
                <div key={row.key} className="grid gap-1">
                  <div className="flex items-center gap-2">
                    <Input
                      aria-label={`Keyword ${index + 1}`}
                      value={row.value}
                      maxLength={40}
                      className="max-w-xs uppercase"
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `keyword-${row.key}-error` : undefined}
                      onChange={(event) => update(row.key, event.target.value)}
                    />
                    <Button type="button" variant="ghost" size="icon" aria-label={`Remove keyword ${index + 1}`} onClick={() => setRows((current) => current.filter((r) => r.key !== row.key))}>
                      <Trash2 aria-hidden />
                    </Button>
                  </div>
                  {error && (
                    <p id={`keyword-${row.key}-error`} role="alert" className="text-xs font-medium text-destructive">
                      {error}
                    </p>
                  )}
                </div>
              );
            })}
            {errors.list && (
              <p role="alert" className="text-xs font-medium text-destructive">
                {errors.list}
              </p>
            )}
            <div>
              <Button type="button" variant="outline" size="sm" disabled={rows.length >= 20} onClick={() => setRows((current) => [...current, ...rowsOf([""])])}>
                <Plus aria-hidden /> Add keyword
              </Button>
            </div>
          </fieldset>
        </CardContent>
        <CardFooter>
          <Button type="submit" disabled={saving}>
            {saving ? "Saving…" : "Save keywords"}
          </Button>
        </CardFooter>
      </Card>
    </form>
  );
}
