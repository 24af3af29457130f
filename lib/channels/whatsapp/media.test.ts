import { beforeEach, describe, expect, it } from "vitest";
import { encryptSecret } from "@/lib/crypto/secrets";
import { ChannelRequestError } from "../send-error";
import type { ChannelSender } from "../types";
import { createWhatsAppChannel } from "./index";
import { fakeGraphForFile } from "./testing/fake-graph-hooks";

const fakeGraph = fakeGraphForFile();
beforeEach(() => {
  fakeGraph().requests.length = 0;
});

const sender: ChannelSender = {
  id: "snd_1",
  workspaceId: "ws_1",
  channel: "whatsapp",
  address: "106540352242922",
  accessTokenEncrypted: encryptSecret("EAAG-media-token"),
  throughputPerSecond: 80,
};

describe("the WhatsApp channel's media download (against a local fake Graph API)", () => {
  it("asks for the media's URL, then fetches it, both with the sender's token", async () => {
    fakeGraph().handle((request) =>
      request.path === "/v23.0/1234567890"
        ? { body: { messaging_product: "whatsapp", url: `${fakeGraph().url}/lookaside/abc?ext=1`, mime_type: "image/jpeg", file_size: 9, id: "1234567890" } }
        : request.path === "/lookaside/abc"
          ? { text: "JPEGBYTES" }
          : { status: 404, body: { error: { message: "Unknown path", code: 100 } } },
    );
    const media = await createWhatsAppChannel().downloadMedia("1234567890", sender);
    expect(new TextDecoder().decode(media.bytes)).toBe("JPEGBYTES");
    expect(media.mimeType).toBe("image/jpeg");
    expect(fakeGraph().requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ["GET", "/v23.0/1234567890", "Bearer EAAG-media-token"],
      ["GET", "/lookaside/abc", "Bearer EAAG-media-token"],
    ]);
  });

  it("an unknown media id or a download that fails is a ChannelRequestError, never bytes", async () => {
    fakeGraph().handle(() => ({ status: 400, body: { error: { message: "(#100) Invalid media id", code: 100 } } }));
    const unknown = await createWhatsAppChannel().downloadMedia("nope", sender).then(() => null, (e: unknown) => e);
    expect(unknown).toBeInstanceOf(ChannelRequestError);
    expect((unknown as ChannelRequestError).failure).toMatchObject({ kind: "graph", code: 100 });

    fakeGraph().handle((request) => (request.path.startsWith("/v23.0/") ? { body: { url: `${fakeGraph().url}/gone` } } : { status: 404, text: "gone" }));
    const gone = await createWhatsAppChannel().downloadMedia("1234567890", sender).then(() => null, (e: unknown) => e);
    expect((gone as ChannelRequestError).failure).toMatchObject({ kind: "http", httpStatus: 404 });
  });
});
