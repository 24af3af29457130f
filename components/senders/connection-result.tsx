import { CheckCircle2, XCircle } from "lucide-react";
import type { ConnectionTestResult } from "@/lib/senders/service";

type ConnectionError = Extract<ConnectionTestResult, { ok: false }>["error"];

const HEADINGS: Record<ConnectionError["kind"], string> = {
  network: "Could not reach the WhatsApp Cloud API",
  timeout: "The WhatsApp Cloud API did not answer in time",
  graph: "WhatsApp refused the connection",
  http: "The WhatsApp Cloud API answered with an error",
};

/** The outcome of Test connection: what WhatsApp reported, or why it failed in words a person can act on. */
export function ConnectionResult({ result }: { result: ConnectionTestResult }) {
  if (result.ok) {
    return (
      <div role="status" className="flex gap-2.5 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900 sm:col-span-2">
        <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />
        <div>
          <p className="font-medium">Connected{result.verifiedName ? ` to ${result.verifiedName}` : ""}</p>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
            <dt>Display number</dt>
            <dd>{result.displayPhoneNumber ?? "—"}</dd>
            <dt>Throughput</dt>
            <dd>
              {result.throughputPerSecond} messages / second{result.throughputLevel ? ` (${result.throughputLevel})` : ""}
            </dd>
            <dt>Messaging limit</dt>
            <dd>{result.messagingTier ? result.messagingTierLabel : "Not reported by WhatsApp: choose it under Messaging limit"}</dd>
            {result.qualityRating && (
              <>
                <dt>Quality</dt>
                <dd>{result.qualityRating}</dd>
              </>
            )}
          </dl>
        </div>
      </div>
    );
  }
  const { error } = result;
  const unreachable = error.kind === "network" || error.kind === "timeout";
  return (
    <div role="alert" className="flex gap-2.5 rounded-lg border border-destructive/30 bg-destructive/5 p-3 text-sm text-destructive sm:col-span-2">
      <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div className="min-w-0">
        <p className="font-medium">{HEADINGS[error.kind]}</p>
        {unreachable ? (
          <p className="mt-0.5 text-xs break-words">{error.details ?? error.message}</p>
        ) : (
          <>
            <p className="mt-0.5 font-mono text-xs break-words">
              {error.message}
              {error.code !== null && ` (code ${error.code}${error.subcode ? `, subcode ${error.subcode}` : ""})`}
              {error.httpStatus !== null && ` · HTTP ${error.httpStatus}`}
            </p>
            {error.details && error.details !== error.message && <p className="mt-0.5 text-xs break-words">{error.details}</p>}
          </>
        )}
      </div>
    </div>
  );
}
