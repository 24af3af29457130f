// Media a contact sent: WhatsApp gives its id in the webhook; the bytes are fetched in two steps,
// the media's short-lived URL (GET {version}/{media-id}), then that URL with the same token. The
// URL lasts minutes, so it is asked for on every download and never stored.
import { GraphApiError, graphRequest, type GraphConfig } from "./graph";

/** WhatsApp's largest media (a document) is 100 MB; nothing larger is read into memory. */
export const MEDIA_MAX_BYTES = 100 * 1024 * 1024;

export interface DownloadedMedia {
  bytes: Uint8Array;
  mimeType: string | null;
}

export async function downloadWhatsAppMedia(config: GraphConfig, mediaId: string): Promise<DownloadedMedia> {
  const meta = await graphRequest<{ url?: string; mime_type?: string; file_size?: number }>(config, "GET", encodeURIComponent(mediaId));
  if (typeof meta.url !== "string" || meta.url === "") {
    throw new GraphApiError({ kind: "graph", message: "The WhatsApp Cloud API answered without the media's URL.", httpStatus: 200 });
  }
  if (typeof meta.file_size === "number" && meta.file_size > MEDIA_MAX_BYTES) {
    throw new GraphApiError({ kind: "graph", message: `The media is ${meta.file_size} bytes, more than WhatsApp's 100 MB.`, httpStatus: 200 });
  }
  let response: Response;
  try {
    response = await fetch(meta.url, { headers: { Authorization: `Bearer ${config.accessToken}` }, signal: AbortSignal.timeout(config.timeoutMs ?? 30_000) });
  } catch (error) {
    const timedOut = (error as Error).name === "TimeoutError" || (error as Error).name === "AbortError";
    throw new GraphApiError({ kind: timedOut ? "timeout" : "network", message: timedOut ? "WhatsApp's media server did not answer in time." : "Could not reach WhatsApp's media server." });
  }
  if (!response.ok) {
    throw new GraphApiError({ kind: "http", httpStatus: response.status, message: `WhatsApp's media server answered HTTP ${response.status}.` });
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { bytes, mimeType: meta.mime_type ?? response.headers.get("content-type") };
}
