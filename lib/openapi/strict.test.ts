import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { updateCampaignSchema } from "@/lib/campaigns/schemas";
import { curlCommand } from "./curl";
import { parseStrict } from "@/lib/http/request";
import { unknownMemberErrors } from "@/lib/http/strict";

describe("unknownMemberErrors", () => {
  it("finds unknown members at any depth through optional, nullable, pipes, arrays, records and unions", () => {
    const schema = z.object({
      a: z.object({ b: z.string() }).optional(),
      list: z.array(z.object({ c: z.number() }).nullable()),
      map: z.record(z.string(), z.object({ d: z.boolean() })),
      either: z.union([z.object({ x: z.string() }), z.object({ y: z.string() })]),
      text: z.string().transform((v) => v.length),
      loose: z.looseObject({ e: z.string() }),
    });
    const errors = unknownMemberErrors(schema, {
      a: { b: "ok", extra: 1 },
      list: [{ c: 1 }, null, { c: 2, nope: true }],
      map: { one: { d: true, what: 1 } },
      either: { y: "ok" },
      text: "x",
      loose: { e: "ok", anything: "goes" },
      top: 1,
    });
    expect(errors.map((e) => e.path)).toEqual(["a.extra", "list[2].nope", "map.one.what", "top"]);
    expect(unknownMemberErrors(schema, { either: { z: 1 } }).map((e) => e.path)).toEqual(["either.z"]);
  });

  it("parseStrict reports unknown members together with the schema's own errors", () => {
    expect(() => parseStrict(updateCampaignSchema, { name: "", colour: "red" })).toThrowError(
      expect.objectContaining({
        status: 422,
        errors: [expect.objectContaining({ path: "colour", code: "unrecognized_key" }), expect.objectContaining({ path: "name", code: "too_small" })],
      }),
    );
    expect(parseStrict(updateCampaignSchema, { name: " Renamed " })).toEqual({ name: "Renamed" });
  });
});

describe("curlCommand", () => {
  it("quotes bodies for a POSIX shell, keeps $VARIABLES expandable, and survives apostrophes", () => {
    const command = curlCommand("POST", "/api/v1/campaigns/{id}/x", {
      baseUrl: "http://localhost:1",
      path: { id: "$CAMPAIGN_ID" },
      body: { name: "Maria's order", templateId: "$TEMPLATE_ID" },
    });
    expect(command).toContain('"http://localhost:1/api/v1/campaigns/$CAMPAIGN_ID/x"');
    // Print the arguments bash would pass to curl instead of running curl.
    const args = execFileSync("bash", ["-c", `curl() { printf '%s\\n' "$@"; }; ${command}`], {
      env: { ...process.env, CAMPAIGN_ID: "cmp_1", TEMPLATE_ID: "tpl_2", SENDSTREAM_API_KEY: "ss_k" },
      encoding: "utf8",
    }).split("\n");
    expect(args).toContain("http://localhost:1/api/v1/campaigns/cmp_1/x");
    expect(args).toContain("x-api-key: ss_k");
    expect(JSON.parse(args[args.indexOf("-d") + 1]!)).toEqual({ name: "Maria's order", templateId: "tpl_2" });
  });
});
