"use client";

import * as React from "react";
import { requestJson, type ClientProblem } from "@/lib/http/client";

/** The API's refusal, beside the composer: its detail and each field's message. */
export function ProblemMessage({ problem }: { problem: ClientProblem | null }) {
  if (!problem) return null;
  const fields = problem.errors ?? [];
  return (
    <div role="alert" className="mb-2 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm text-destructive">
      {fields.length === 0 ? problem.detail : fields.length === 1 ? fields[0]!.message : <ul className="list-disc pl-4">{fields.map((field) => <li key={field.path}>{field.message}</li>)}</ul>}
    </div>
  );
}

/** Posts `body`; on success clears the form and tells the pane. */
export function useSend(url: string, onSent: () => void) {
  const [busy, setBusy] = React.useState(false);
  const [problem, setProblem] = React.useState<ClientProblem | null>(null);
  const send = async (body: unknown): Promise<boolean> => {
    setBusy(true);
    setProblem(null);
    const result = await requestJson(url, { method: "POST", body });
    setBusy(false);
    if (!result.ok) {
      setProblem(result.problem);
      return false;
    }
    onSent();
    return true;
  };
  return { busy, problem, send };
}
