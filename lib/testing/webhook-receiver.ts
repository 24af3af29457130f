// A real HTTP server on 127.0.0.1 that stands in for a customer's webhook endpoint: it records
// every request (headers and raw body) and answers with the statuses it is told to, in turn.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Statuses for the next requests, in order; after them every request gets `fallback`. */
  answer(statuses: number[], fallback?: number): void;
  /** Holds every answer for this long (timeouts). */
  delayMs: number;
  /** Forgets what was received and answers 200 at once again (between tests). */
  reset(): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = "/hooks/sendstream"): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let queue: number[] = [];
  let fallback = 200;
  const receiver: Omit<WebhookReceiver, "url" | "close"> = {
    received,
    answer(statuses, otherwise = 200) {
      queue = [...statuses];
      fallback = otherwise;
    },
    delayMs: 0,
    reset() {
      received.length = 0;
      queue = [];
      fallback = 200;
      receiver.delayMs = 0;
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const status = queue.shift() ?? fallback;
      setTimeout(() => {
        if (response.destroyed) return;
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify({ received: true, status }));
      }, receiver.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
