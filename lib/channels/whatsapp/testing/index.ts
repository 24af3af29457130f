// What tests outside the channel use to script the WhatsApp Cloud API: a local fake Graph server,
// and the errors the Cloud API client throws (for fakes that fail as WhatsApp would).
import { GraphApiError } from "../graph";

export { defaultGraphHandler, graphError, startFakeGraph, templateCreated, type FakeGraph, type FakeGraphHandler, type FakeGraphReply, type FakeGraphRequest } from "./fake-graph";
export { fakeGraphForFile } from "./fake-graph-hooks";
export { createWhatsAppChannel } from "../index";

/** What the Cloud API client throws for a Graph error `code` (HTTP 400 unless told). */
export function whatsappRejection(code: number, message: string, httpStatus = 400): Error {
  return new GraphApiError({ kind: "graph", httpStatus, code, message: `(#${code}) ${message}` });
}

/** What the Cloud API client throws when no answer came in time (before the request was written). */
export function whatsappTimeout(): Error {
  return new GraphApiError({ kind: "timeout", message: "The WhatsApp Cloud API did not answer in time." });
}
