// An ApiError is recognised by its brand, not its class: Next.js loads lib/ in more than one module
// graph per process, and code of one graph (a campaign kind registered at start-up) throws into
// another's route handler.
import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { toApiError } from "./problem";

describe("ApiError across module graphs", () => {
  it("answers an ApiError made by another copy of the module as its own problem", async () => {
    // The same file under another module id: a second copy of the class, as another graph has.
    const otherGraph = (await import(/* @vite-ignore */ `./errors.ts?graph=${"start-up"}`)) as typeof import("./errors");
    expect(otherGraph.ApiError).not.toBe(ApiError);
    const error = otherGraph.conflict("A bulk campaign is launched or scheduled, not deployed.", "invalid_status_transition");
    expect(error).toBeInstanceOf(ApiError);
    expect(toApiError(error)).toBe(error);
    expect(toApiError(error)).toMatchObject({ status: 409, code: "invalid_status_transition" });
  });

  it("is no ApiError without the brand", () => {
    expect(new Error("boom")).not.toBeInstanceOf(ApiError);
    expect({ status: 409, code: "invalid_status_transition" }).not.toBeInstanceOf(ApiError);
    expect(null).not.toBeInstanceOf(ApiError);
    expect(toApiError(new Error("boom")).status).toBe(500);
  });
});
