// A real HTTP server standing in for the WhatsApp Cloud API in tests and benchmarks.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeGraphRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface FakeGraphReply {
  status?: number;
  body?: unknown;
  /** Raw text body (for non-JSON answers). */
  text?: string;
  /** Never answer (to exercise client timeouts). */
  hang?: boolean;
  delayMs?: number;
}

export type FakeGraphHandler = (request: FakeGraphRequest) => FakeGraphReply | Promise<FakeGraphReply>;

export interface FakeGraph {
  url: string;
  requests: FakeGraphRequest[];
  /** Replace the handler (tests script each case). */
  handle(handler: FakeGraphHandler): void;
  close(): Promise<void>;
}

export function graphError(code: number, message: string, status = 400, details?: string): FakeGraphReply {
  return {
    status,
    body: { error: { message: `(#${code}) ${message}`, type: "OAuthException", code, error_data: { messaging_product: "whatsapp", details: details ?? message }, fbtrace_id: "AfakeTrace" } },
  };
}

/**
 * Template creation (`POST /{version}/{waba-id}/message_templates`) answers as Meta does: a new id,
 * PENDING, the category asked for. Anything else is an unknown path.
 */
export function templateCreated(request: FakeGraphRequest, id = `${1_000_000_000_000 + Math.floor(Math.random() * 1e9)}`): FakeGraphReply {
  const category = String((request.body as { category?: unknown } | undefined)?.category ?? "UTILITY");
  return { status: 200, body: { id, status: "PENDING", category } };
}

export const defaultGraphHandler: FakeGraphHandler = (request) =>
  request.method === "POST" && /^\/v[\d.]+\/[^/]+\/message_templates$/.test(request.path)
    ? templateCreated(request)
    : { status: 404, body: { error: { message: "Unknown path", code: 100 } } };

export interface FakeGraphOptions {
  /**
   * Keep every request in `requests` (default). A benchmark sending a thousand a second turns it off:
   * its fake then holds no request objects between requests.
   */
  keepRequests?: boolean;
}

export async function startFakeGraph(initial?: FakeGraphHandler, { keepRequests = true }: FakeGraphOptions = {}): Promise<FakeGraph> {
  let handler: FakeGraphHandler = initial ?? defaultGraphHandler;
  const requests: FakeGraphRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake.graph");
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // leave as text
    }
    const request = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body };
    if (keepRequests) requests.push(request);
    const reply = await handler(request);
    if (reply.hang) {
      hanging.add(res);
      return;
    }
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    res.statusCode = reply.status ?? 200;
    if (reply.text !== undefined) {
      res.setHeader("Content-Type", "text/plain");
      res.end(reply.text);
    } else {
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify(reply.body ?? {}));
    }
  });
  // Idle connections stay open as a real API's do. (At 1 s, the announced `Keep-Alive: timeout=1`
  // made Node's client agent close every socket after its answer: a new connection per request.)
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
