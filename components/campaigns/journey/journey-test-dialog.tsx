"use client";

import { FlaskConical } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormField, fieldAria } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { requestJson } from "@/lib/http/client";
import { NativeSelect } from "../native-select";

const SCALES = [
  { value: 60, label: "1 hour = 1 minute" },
  { value: 600, label: "1 hour = 6 seconds" },
  { value: 3600, label: "1 hour = 1 second" },
];
const FINISHED = new Set(["completed", "exited", "ended", "failed"]);

/** A run as `GET /api/v1/journey-runs/{id}` answers it (the members the dialog shows). */
interface TestRun {
  id: string;
  status: string;
  stepId?: string | null;
  history?: { stepId: string; stepName?: string | null; outcome: string }[];
}

/** Starts a test run of the journey on screen for one phone, its waits compressed, and follows it. */
export function JourneyTestDialog({ campaignId, beforeStart, example, disabled }: { campaignId: string; beforeStart: () => Promise<boolean>; example: () => Record<string, unknown>; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const [phone, setPhone] = useState("");
  const [body, setBody] = useState("");
  const [scale, setScale] = useState(3600);
  const [error, setError] = useState<{ phone?: string; body?: string; form?: string }>({});
  const [starting, setStarting] = useState(false);
  const [run, setRun] = useState<TestRun | null>(null);

  useEffect(() => {
    if (!open || !run || FINISHED.has(run.status)) return;
    const timer = setInterval(async () => {
      const result = await requestJson<TestRun>(`/api/v1/journey-runs/${run.id}`);
      if (result.ok) setRun(result.data);
    }, 1500);
    return () => clearInterval(timer);
  }, [open, run]);

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) {
      setBody(JSON.stringify(example(), null, 2));
      setRun(null);
      setError({});
    }
  }

  async function start() {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      setError({ body: "The example body is not valid JSON." });
      return;
    }
    if (!phone.trim()) {
      setError({ phone: "Enter the phone number to test with." });
      return;
    }
    setStarting(true);
    try {
      if (!(await beforeStart())) return;
      const result = await requestJson<unknown>(`/api/v1/campaigns/${campaignId}/journey/test`, { method: "POST", body: { phone: phone.trim(), request: parsed, timeScale: scale } });
      if (!result.ok) {
        const phoneError = result.problem.errors?.find((e) => e.path.startsWith("phone"))?.message;
        setError({ phone: phoneError, form: phoneError ? undefined : result.problem.detail });
        return;
      }
      setError({});
      setRun(result.data as TestRun);
    } finally {
      setStarting(false);
    }
  }

  const history = run?.history ?? [];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" disabled={disabled}>
          <FlaskConical aria-hidden /> Test journey
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Test journey</DialogTitle>
          <DialogDescription>Runs the journey on screen for one phone number, with its waits compressed. Messages are sent for real (simulated in the sandbox) and marked as tests.</DialogDescription>
        </DialogHeader>
        <div className="grid gap-4">
          <FormField id="journey-test-phone" label="Phone number" error={error.phone}>
            <Input {...fieldAria("journey-test-phone", error.phone)} type="tel" placeholder="+14155552671" value={phone} onChange={(e) => setPhone(e.target.value)} />
          </FormField>
          <FormField id="journey-test-body" label="Example request body" error={error.body}>
            <Textarea {...fieldAria("journey-test-body", error.body)} rows={6} className="font-mono text-xs" value={body} onChange={(e) => setBody(e.target.value)} />
          </FormField>
          <FormField id="journey-test-scale" label="Compress waits">
            <NativeSelect id="journey-test-scale" value={scale} onChange={(e) => setScale(Number(e.target.value))}>
              {SCALES.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          {error.form && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {error.form}
            </p>
          )}
          {run && (
            <div role="status" className="grid gap-1 rounded-lg border p-3 text-sm">
              <p>
                Test run <span className="font-mono text-xs">{run.id}</span>: <strong className="font-medium">{run.status}</strong>
                {run.stepId ? ` · at ${run.stepId}` : ""}
              </p>
              {history.length > 0 && (
                <ol className="grid gap-0.5 text-xs text-muted-foreground">
                  {history.map((h, i) => (
                    <li key={i}>
                      {h.stepName ?? h.stepId} — {h.outcome}
                    </li>
                  ))}
                </ol>
              )}
            </div>
          )}
          {run && (
            <p className="text-sm">
              Follow the messages it sends in the{" "}
              <Link className="font-medium underline underline-offset-2" href={`/campaigns/${campaignId}/logs`}>
                campaign logs
              </Link>
              .
            </p>
          )}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)}>
            Close
          </Button>
          <Button onClick={start} disabled={starting}>
            {starting ? "Starting…" : "Start test run"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
