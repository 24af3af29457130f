import { describe, expect, it } from "vitest";
import { checkJourney, journeySchema, type Journey } from "./journey";
import { deleteStep, insertStep, layoutJourney, stepIdOfPath, type FlowBranch } from "./journey-edit";
import { journeyIssues, serverIssues, SETTINGS } from "./journey-issues";
import { evaluateCondition, previewJourneyPath } from "./journey-path";
import { applyPreset, JOURNEY_PRESETS } from "./journey-presets";

const cart = JOURNEY_PRESETS.find((p) => p.id === "abandoned-cart")!;
const template = { id: "tpl_a", status: "APPROVED", variables: [{ key: "body.1", name: "1" }, { key: "body.2", name: "2" }] };

function drawnIds(branch: FlowBranch): string[] {
  return branch.items.flatMap((item) => (item.kind === "step" ? [item.step.id, ...item.branches.flatMap(drawnIds)] : []));
}

describe("journey presets", () => {
  it.each(JOURNEY_PRESETS.map((p) => [p.id, p] as const))("%s is a valid journey once its templates are placeholders", (_, preset) => {
    const { journey, placeholders } = applyPreset(preset, [template]);
    expect(journeySchema.safeParse(journey).success).toBe(true);
    expect(checkJourney(journey, { mappedFields: preset.fields.map((f) => f.field) })).toEqual([]);
    expect(placeholders.length).toBe(journey.steps.filter((s) => s.type === "send").length);
  });

  it("maps the placeholder's blanks in the preset's order and leaves the preset itself untouched", () => {
    const { journey } = applyPreset(cart, [{ ...template, status: "PENDING" }, template]);
    const reminder = journey.steps.find((s) => s.id === "reminder");
    expect(reminder).toMatchObject({ templateId: "tpl_a", messageConfig: { variables: [{ key: "body.1", attribute: "first_name" }, { key: "body.2", attribute: "cart_url" }] } });
    expect(cart.journey.steps.find((s) => s.id === "reminder")).toMatchObject({ templateId: "" });
  });

  it("fills a positional blank by its number, and a blank it has no attribute for with the template's example", () => {
    const appointment = { id: "tpl_b", status: "APPROVED", variables: [{ key: "header.1", name: "1" }, { key: "body.1", name: "1" }, { key: "body.3", name: "3", example: "10:30" }] };
    const { journey } = applyPreset(cart, [appointment]);
    expect(journey.steps.find((s) => s.id === "reminder")).toMatchObject({
      messageConfig: { variables: [{ key: "header.1", attribute: "first_name" }, { key: "body.1", attribute: "first_name" }, { key: "body.3", attribute: null, fallback: "10:30" }] },
    });
  });
});

describe("layoutJourney", () => {
  it("draws a step reached twice once, and a link to it from the other way", () => {
    const { journey } = applyPreset(cart, [template]);
    const { root, unreachable } = layoutJourney(journey);
    expect(drawnIds(root)).toEqual(["wait_hour", "reminder", "wait_read", "if_unread", "reminder_code"]);
    const waitRead = root.items.find((i) => i.kind === "step" && i.step.id === "wait_read");
    expect(waitRead?.kind === "step" && waitRead.branches.map((b) => [b.label, b.items[0]?.kind])).toEqual([
      ["When it happens", "step"],
      ["On timeout", "continues"],
    ]);
    expect(unreachable).toEqual([]);
  });
});

describe("insertStep / deleteStep", () => {
  it("starts a journey with its first step, then adds under an edge keeping what followed", () => {
    const first = insertStep(null, { stepId: null, slot: { kind: "next" } }, "send");
    expect(first.journey.firstStepId).toBe("send_1");
    const second = insertStep(first.journey, { stepId: null, slot: { kind: "next" } }, "wait");
    expect(second.journey.firstStepId).toBe("wait_1");
    expect(second.journey.steps.find((s) => s.id === "wait_1")).toMatchObject({ next: "send_1" });
  });

  it("reconnects what led to a deleted step, and removes the steps only its other ways reached", () => {
    const { journey } = applyPreset(cart, [template]);
    const withoutWait = deleteStep(journey, "wait_hour");
    expect(withoutWait.journey?.firstStepId).toBe("reminder");
    const withoutBranch = deleteStep(journey, "if_unread");
    expect(withoutBranch.removed).toEqual(["if_unread"]);
    expect(withoutBranch.journey?.steps.find((s) => s.id === "wait_read")).toMatchObject({ next: "reminder_code", timeoutNext: "reminder_code" });
    const withoutWaitRead = deleteStep(journey, "reminder");
    expect(checkJourney(withoutWaitRead.journey as Journey, { mappedFields: [] })).toEqual([]);
    expect(deleteStep({ ...journey, firstStepId: "reminder_code", steps: journey.steps.filter((s) => s.id === "reminder_code") }, "reminder_code").journey).toBeNull();
  });

  it("names the step of an issue path, from the checker or the API", () => {
    const { journey } = applyPreset(cart, [template]);
    expect(stepIdOfPath(journey, ["steps", 1, "templateId"])).toBe("reminder");
    expect(stepIdOfPath(journey, "journey.steps[3].paths[0].next")).toBe("if_unread");
    expect(stepIdOfPath(journey, "journey.exitEvents[0]")).toBeNull();
  });
});

describe("previewJourneyPath", () => {
  it("decides branches on trigger fields and attributes, and says where only the run can tell", () => {
    const journey = journeySchema.parse({
      firstStepId: "b",
      steps: [
        {
          id: "b",
          type: "branch",
          paths: [
            { name: "VIP", conditions: [{ subject: { kind: "trigger", field: "cart.total" }, operator: "greater_than", value: 100 }], next: "vip" },
            { name: "Replied", conditions: [{ subject: { kind: "reply_text" }, operator: "equals", value: "yes" }], next: null },
          ],
          elseNext: null,
        },
        { id: "vip", type: "end" },
      ],
    });
    expect(previewJourneyPath(journey, { body: { cart: { total: 150 } }, attributes: {} }).map((s) => [s.step.id, s.way?.label ?? null])).toEqual([
      ["b", "VIP"],
      ["vip", null],
    ]);
    const low = previewJourneyPath(journey, { body: { cart: { total: 50 } }, attributes: {} });
    expect(low[0]?.way).toMatchObject({ label: "Replied", decided: false });
    expect(evaluateCondition({ subject: { kind: "attribute", attribute: "city" }, operator: "equals", value: " Lisbon" }, { body: {}, attributes: { city: "lisbon" } })).toBe(true);
  });
});

describe("journeyIssues / serverIssues", () => {
  it("files the document's, the graph's and the message's problems under their steps, and the API's by path", () => {
    const { journey } = applyPreset(cart, [template]);
    const broken: Journey = {
      ...journey,
      steps: journey.steps.map((s) => (s.id === "reminder_code" && s.type === "send" ? { ...s, templateId: "" } : s.id === "reminder" && s.type === "send" ? { ...s, messageConfig: { variables: [] } } : s)),
      exitEvents: [{ kind: "event", name: "" }],
    };
    const issues = journeyIssues(broken, { mappedFields: [], templates: [{ ...template, name: "cart_reminder" }] });
    expect(issues.get("reminder_code")?.map((i) => i.message)).toEqual(["Choose the template this step sends."]);
    expect(issues.get("reminder")?.map((i) => i.message)).toEqual(["Fill body.1 with an attribute or a fallback.", "Fill body.2 with an attribute or a fallback."]);
    expect(issues.get(SETTINGS)?.[0]?.path).toBe("exitEvents[0].name");
    const server = serverIssues(journey, [
      { path: "journey.steps[1].templateId", message: "Not approved." },
      { path: "trigger.phone", message: "Unrelated." },
    ]);
    expect([...server.keys()]).toEqual(["reminder"]);
  });
});
