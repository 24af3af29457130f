// The fake Graph API for `bench/dispatch.ts` and `bench/top-rate.ts`, in its own process (as the real
// API is): accepts every message after BENCH_GRAPH_LATENCY_MS (or, with BENCH_GRAPH_LATENCY_MAX_MS,
// a latency drawn uniformly between the two), records when each request arrived per phone number id,
// and serves those timestamps on GET /__stats (POST /__reset clears them), their count on /__count, and
// each answered wamid's arrival time on /__wamids.
import { startFakeGraph } from "@/lib/channels/whatsapp/testing/fake-graph";

const LATENCY_MS = Number(process.env.BENCH_GRAPH_LATENCY_MS ?? 25);
const LATENCY_MAX_MS = Number(process.env.BENCH_GRAPH_LATENCY_MAX_MS ?? LATENCY_MS);
const arrivals = new Map<string, number[]>();
const arrivalByWamid = new Map<string, number>();
let counter = 0;

const graph = await startFakeGraph(async (request) => {
  if (request.path === "/__stats") return { body: Object.fromEntries(arrivals) };
  if (request.path === "/__count") return { body: { count: [...arrivals.values()].reduce((n, list) => n + list.length, 0) } };
  if (request.path === "/__wamids") return { body: Object.fromEntries(arrivalByWamid) };
  if (request.path === "/__reset") {
    arrivals.clear();
    arrivalByWamid.clear();
    return { body: { ok: true } };
  }
  const phoneNumberId = request.path.split("/")[2] ?? "unknown";
  const list = arrivals.get(phoneNumberId) ?? [];
  const arrivedAt = Date.now();
  list.push(arrivedAt);
  arrivals.set(phoneNumberId, list);
  const wamid = `wamid.BENCH${process.pid}.${++counter}`;
  arrivalByWamid.set(wamid, arrivedAt);
  return {
    delayMs: LATENCY_MS + Math.random() * (LATENCY_MAX_MS - LATENCY_MS),
    body: { messaging_product: "whatsapp", contacts: [{ input: "x", wa_id: "x" }], messages: [{ id: wamid, message_status: "accepted" }] },
  };
});
graph.requests.length = 0;
// Keep no per-request history in the fake itself (the bench sends tens of thousands).
setInterval(() => (graph.requests.length = 0), 1000).unref();
process.stdout.write(`${graph.url}\n`);
process.on("SIGTERM", () => void graph.close().then(() => process.exit(0)));
