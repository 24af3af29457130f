import { afterAll, beforeAll } from "vitest";
import { startFakeGraph, type FakeGraph } from "./fake-graph";

/**
 * Starts a fake WhatsApp Cloud API for the test file and points WHATSAPP_GRAPH_URL at it, restoring
 * the previous value afterwards. Returns an accessor for the running server.
 */
export function fakeGraphForFile(): () => FakeGraph {
  let graph: FakeGraph | undefined;
  const previousUrl = process.env.WHATSAPP_GRAPH_URL;
  beforeAll(async () => {
    graph = await startFakeGraph();
    process.env.WHATSAPP_GRAPH_URL = graph.url;
  });
  afterAll(async () => {
    if (previousUrl === undefined) delete process.env.WHATSAPP_GRAPH_URL;
    else process.env.WHATSAPP_GRAPH_URL = previousUrl;
    await graph?.close();
  });
  return () => {
    if (!graph) throw new Error("The fake Graph API starts in beforeAll; use it inside a test.");
    return graph;
  };
}
