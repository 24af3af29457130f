// The fake Graph API for `bench/dispatch.ts` and `bench/top-rate.ts`, in its own process (as the real
// API is): accepts every message after BENCH_GRAPH_LATENCY_MS (or, with BENCH_GRAPH_LATENCY_MAX_MS,
// a latency drawn uniformly between the two), records when each request arrived per phone number id,
// and serves those timestamps on GET /__stats (POST /__reset clears them), their count on /__count, and
// each answered wamid's arrival time on /__wamids.
import { startFakeGraph } from "@/lib/channels/whatsapp/testing/fake-graph";

const LATENCY_MS = Number(process.env.BENCH_GRAPH_LATENCY_MS ?? 25);
const LATENCY_MAX_MS = Number(process.env.BENCH_GRAPH_LATENCY_MAX_MS ?? LATENCY_MS);

const WAMID_PREFIX = `wamid.BENCH${process.pid}.`;
const arrivals = new Map<string, number[]>();
/**
 * The arrival of the request answered with wamid `WAMID_PREFIX + (answeredBefore + index + 1)` (numbers
 * by index, not a map of 300,000 wamid strings); wamids never repeat across resets.
 */
let arrivalByWamid: number[] = [];
let answeredBefore = 0;
const wamidOf = (index: number) => `${WAMID_PREFIX}${answeredBefore + index + 1}`;

const graph = await startFakeGraph(
  async (request) => {
    if (request.path === "/__stats") return { body: Object.fromEntries(arrivals) };
    if (request.path === "/__count") return { body: { count: arrivalByWamid.length } };
    if (request.path === "/__wamids") return { body: Object.fromEntries(Array.from({ length: arrivalByWamid.length }, (_, i) => [wamidOf(i), arrivalByWamid[i]])) };
    if (request.path === "/__reset") {
      arrivals.clear();
      answeredBefore += arrivalByWamid.length;
      arrivalByWamid = [];
      return { body: { ok: true } };
    }
    const phoneNumberId = request.path.split("/")[2] ?? "unknown";
    let times = arrivals.get(phoneNumberId);
    if (!times) arrivals.set(phoneNumberId, (times = []));
    const arrivedAt = Date.now();
    times.push(arrivedAt);
    arrivalByWamid.push(arrivedAt);
    return {
      delayMs: LATENCY_MS + Math.random() * (LATENCY_MAX_MS - LATENCY_MS),
      body: { messaging_product: "whatsapp", contacts: [{ input: "x", wa_id: "x" }], messages: [{ id: wamidOf(arrivalByWamid.length - 1), message_status: "accepted" }] },
    };
  },
  { keepRequests: false },
);
process.stdout.write(`${graph.url}\n`);
process.on("SIGTERM", () => void graph.close().then(() => process.exit(0)));
