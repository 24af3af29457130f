// The bytes of media a contact sent, fetched from its channel when a member opens it (WhatsApp keeps
// media for its business users; we store only its id). Served by `GET /api/media/{inboundId}`.
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { inboundMessages, senders } from "@/db/schema";
import { ChannelRequestError, getChannel } from "@/lib/channels";
import { ApiError, notFound } from "@/lib/http/errors";
import { loadSendersById } from "@/lib/messaging/claims";

/** Types a browser may show inline from our origin; anything else is a download (a document could be HTML). */
const INLINE_TYPES = /^(image\/(jpeg|png|webp|gif)|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+)$/i;

export interface InboundMedia {
  bytes: Uint8Array;
  mimeType: string;
  /** True when the bytes may be shown in the page; false: offered as a download. */
  inline: boolean;
  filename: string;
}

export async function inboundMedia(db: Executor, workspaceId: string, inboundId: string): Promise<InboundMedia> {
  const [row] = await db
    .select({ media: inboundMessages.media, senderId: inboundMessages.senderId, provider: senders.provider })
    .from(inboundMessages)
    .leftJoin(senders, eq(senders.id, inboundMessages.senderId))
    .where(and(eq(inboundMessages.workspaceId, workspaceId), eq(inboundMessages.id, inboundId)))
    .limit(1);
  if (!row?.media) throw notFound("No media message with this id exists in your workspace.");
  const sender = row.senderId ? (await loadSendersById(db, [row.senderId])).get(row.senderId) : undefined;
  if (!sender || !row.provider) {
    throw new ApiError("sender_replaced", "The number this media arrived on was replaced or deleted, so its media can no longer be fetched.");
  }
  let downloaded: { bytes: Uint8Array; mimeType: string | null };
  try {
    downloaded = await getChannel(row.provider).downloadMedia(row.media.id, sender);
  } catch (error) {
    if (error instanceof ChannelRequestError) throw new ApiError("graph_error", `The media could not be fetched: ${error.failure.message}`);
    throw error;
  }
  const mimeType = (downloaded.mimeType ?? row.media.mimeType ?? "application/octet-stream").split(";")[0]!.trim().toLowerCase();
  const extension = mimeType.split("/")[1]?.replace(/[^a-z0-9]/g, "") || "bin";
  return {
    bytes: downloaded.bytes,
    mimeType,
    // The sandbox's placeholder is our own drawing: safe inline.
    inline: INLINE_TYPES.test(mimeType) || (row.provider === "sandbox" && mimeType === "image/svg+xml"),
    filename: (row.media.filename ?? `${row.media.kind}-${inboundId}.${extension}`).replace(/["\\\r\n]/g, "_"),
  };
}
