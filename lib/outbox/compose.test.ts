import { describe, expect, it } from "vitest";
import { composeFor, type CampaignSending } from "./compose";

const sending: CampaignSending = {
  workspaceId: "ws_1",
  campaignId: "cmp_1",
  senderId: "snd_campaign",
  template: {
    name: "order_update",
    language: "en_US",
    parameterFormat: "POSITIONAL",
    components: [{ type: "BODY", text: "Hi {{1}}, order {{2}} ships today", example: { body_text: [["Ann", "A-1"]] } }],
  },
  messageConfig: {
    variables: [
      { key: "body.1", attribute: "name", fallback: "there" },
      { key: "body.2", attribute: "order", fallback: null },
    ],
  },
};

describe("composeFor", () => {
  it("gives the recipient the campaign's sender and template, rendered from the stored contact merged with the incoming attributes", () => {
    const composed = composeFor(sending, { phone: "+14155550126", contact: { name: "Ann", attributes: { order: "A-0" } }, incoming: { order: "A-7" } });
    expect(composed).toMatchObject({
      ok: true,
      draft: {
        phone: "+14155550126",
        senderId: "snd_campaign",
        template: { name: "order_update", language: "en_US" },
        renderedText: "Hi Ann, order A-7 ships today",
        payload: { template: { name: "order_update", language: { code: "en_US" } } },
        attributes: { name: "Ann", order: "A-7", phoneNumber: "+14155550126" },
      },
    });
  });

  it("refuses a recipient with a variable that has neither a value nor a fallback, naming its attribute", () => {
    expect(composeFor(sending, { phone: "+14155550126" })).toEqual({ ok: false, missing: [{ key: "body.2", attribute: "order" }] });
  });

  it("with placeholders, shows a missing value as [attribute] (test sends of bulk campaigns)", () => {
    const { draft } = composeFor(sending, { phone: "+14155550126" }, { placeholders: true });
    expect(draft.renderedText).toBe("Hi there, order [order] ships today");
    expect(draft.senderId).toBe("snd_campaign");
  });
});
