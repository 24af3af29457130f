import { describe, expect, it } from "vitest";
import { simulatedInbound, simulatedInboundText } from "./index";

describe("simulated inbound messages", () => {
  it("reports any kind the way a real channel does, with a sandbox id and nulls for what the kind lacks", () => {
    const at = new Date("2026-11-26T10:00:00Z");
    const button = simulatedInbound("+14155552671", { kind: "button", text: "Stop promotions", payload: "STOP_PROMOS", contextProviderMessageId: "wamid.SANDBOX.x" }, at);
    expect(button).toEqual({
      providerMessageId: expect.stringMatching(/^wamid\.SANDBOX\.IN\./),
      from: "+14155552671",
      profileName: null,
      at,
      kind: "button",
      text: "Stop promotions",
      payload: "STOP_PROMOS",
      media: null,
      location: null,
      reaction: null,
      contextProviderMessageId: "wamid.SANDBOX.x",
    });
    const reaction = simulatedInbound("+14155552671", { kind: "reaction", reaction: { emoji: "👍", providerMessageId: "wamid.SANDBOX.y" } });
    expect(reaction).toMatchObject({ kind: "reaction", text: null, reaction: { emoji: "👍", providerMessageId: "wamid.SANDBOX.y" } });
    expect(simulatedInboundText("+14155552671", "STOP")).toMatchObject({ kind: "text", text: "STOP" });
    expect(simulatedInboundText("+1", "a").providerMessageId).not.toBe(simulatedInboundText("+1", "a").providerMessageId);
  });
});
