import { getDb } from "@/db";
import { inboundMedia } from "@/lib/inbound/media";
import { onlyMethods, webAppOnly, withWorkspace } from "@/lib/routing/route";

/**
 * A contact's media for the inbox (session only). Only images, audio and video are shown inline;
 * everything else is a download, and nothing it holds may run on our origin.
 */
const routes = {
  ...onlyMethods(["GET"]),
  GET: withWorkspace<{ id: string }>(async ({ params, workspaceId }) => {
    const media = await inboundMedia(await getDb(), workspaceId, params.id);
    return new Response(new Uint8Array(media.bytes), {
      headers: {
        "Content-Type": media.mimeType,
        "Content-Disposition": `${media.inline ? "inline" : "attachment"}; filename="${media.filename}"`,
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "private, max-age=3600",
      },
    });
  }, webAppOnly),
};

export const { GET, POST, PUT, PATCH, DELETE } = routes;
