// The send path to the Cloud API: POST {version}/{phone-number-id}/messages over keep-alive
// connections. `graphRequest` (graph.ts) uses fetch, which costs about 1 ms of CPU per request;
// the dispatcher sends up to thousands of messages per second, so this path uses node:http(s)
// with a pooled agent (several times cheaper) and answers with the same GraphApiError kinds.
import http from "node:http";
import https from "node:https";
import { GraphApiError, type GraphConfig } from "./graph";

/**
 * An idle connection is closed by us after this long. A connection the other end (Meta, or a NAT or
 * firewall between, which often drop idle flows silently after a minute or more) has closed
 * meanwhile would take our next message and lose it: a send whose request was written on a dead
 * connection ends with its outcome unknown. Busy senders never idle this long.
 */
export const IDLE_CONNECTION_MS = 20_000;

/** Keep-alive agents whose idle sockets close after `idleMs` (the agent's `timeout` acts on free sockets). */
export function graphAgents(idleMs: number) {
  return {
    "http:": new http.Agent({ keepAlive: true, maxSockets: 256, timeout: idleMs }),
    "https:": new https.Agent({ keepAlive: true, maxSockets: 256, timeout: idleMs }),
  };
}

const agents = graphAgents(IDLE_CONNECTION_MS);

/**
 * Set on a timeout or network error once the request body was handed to the socket: Meta may have
 * received (and accepted) the message, so sending it again could deliver it twice.
 */
export interface RequestFate {
  requestWritten: boolean;
}

/** True when a failed send may have reached the Cloud API (its outcome is unknown). */
export function mayHaveReachedApi(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as Partial<RequestFate>).requestWritten === true;
}

/** The Graph `{ error: { … } }` body as a GraphApiError, or null when the body is not one. */
function graphErrorFrom(status: number, body: unknown): GraphApiError | null {
  const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
  if (!error || typeof error !== "object") return null;
  const errorData = error.error_data as { details?: string } | undefined;
  return new GraphApiError({
    kind: "graph",
    httpStatus: status,
    message: String(error.message ?? `Graph API error ${status}`),
    code: typeof error.code === "number" ? error.code : Number(error.code) || null,
    subcode: typeof error.error_subcode === "number" ? error.error_subcode : null,
    type: typeof error.type === "string" ? error.type : null,
    details: errorData?.details ?? null,
    fbtraceId: typeof error.fbtrace_id === "string" ? error.fbtrace_id : null,
  });
}

/** POSTs `body` as JSON to `{baseUrl}/{version}/{path}` and returns the parsed JSON answer. */
export function postGraphJson<T>(config: GraphConfig, path: string, body: unknown, through: ReturnType<typeof graphAgents> = agents): Promise<T> {
  const url = new URL(`${config.baseUrl.replace(/\/+$/, "")}/${config.version}/${path.replace(/^\/+/, "")}`);
  const payload = Buffer.from(JSON.stringify(body));
  const transport = url.protocol === "https:" ? https : http;
  const agent = through[url.protocol as keyof typeof through];
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let written = false;
    const finish = (error: GraphApiError | null, value?: T) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // An error answer from Meta is certain; a timeout or a broken connection after the body was
      // written is not.
      if (error && (error.kind === "timeout" || error.kind === "network")) Object.assign(error, { requestWritten: written });
      if (error) reject(error);
      else resolve(value as T);
    };
    const request = transport.request(
      url,
      {
        method: "POST",
        agent,
        headers: { Authorization: `Bearer ${config.accessToken}`, "Content-Type": "application/json", "Content-Length": payload.length },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", (error) => finish(new GraphApiError({ kind: "network", message: `The WhatsApp Cloud API connection failed: ${error.message}` })));
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : {};
          } catch {
            parsed = undefined;
          }
          const graphError = graphErrorFrom(status, parsed);
          if (graphError) return finish(graphError);
          if (status < 200 || status >= 300 || parsed === undefined) {
            return finish(
              new GraphApiError({
                kind: "http",
                httpStatus: status,
                message: `The WhatsApp Cloud API answered HTTP ${status}${parsed === undefined ? " with a body that is not JSON" : ""}.`,
              }),
            );
          }
          finish(null, parsed as T);
        });
      },
    );
    const timer = setTimeout(() => {
      finish(new GraphApiError({ kind: "timeout", message: "The WhatsApp Cloud API did not answer in time." }));
      request.destroy();
    }, config.timeoutMs ?? 15_000);
    request.on("error", (error) => finish(new GraphApiError({ kind: "network", message: `Could not reach the WhatsApp Cloud API: ${error.message}` })));
    request.end(payload, () => {
      written = true;
    });
  });
}
