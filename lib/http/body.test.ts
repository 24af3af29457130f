import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { exceedsJsonDepth, isJsonContentType, MAX_JSON_DEPTH, readJsonBody } from "./body";

function post(body: BodyInit | null, headers: Record<string, string> = { "content-type": "application/json" }) {
  return new Request("http://localhost/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("isJsonContentType", () => {
  it.each([
    ["application/json", true],
    ["application/json; charset=utf-8", true],
    ["Application/JSON", true],
    ["application/merge-patch+json", true],
    ["text/plain", false],
    ["application/x-www-form-urlencoded", false],
    ["", false],
  ])("%s → %s", (value, expected) => {
    expect(isJsonContentType(value)).toBe(expected);
  });
});

describe("readJsonBody", () => {
  it("parses a JSON object and keeps the raw bytes", async () => {
    const { value, raw } = await readJsonBody(post('{"a":1}'), { limitBytes: 100 });
    expect(value).toEqual({ a: 1 });
    expect(new TextDecoder().decode(raw)).toBe('{"a":1}');
  });

  it("refuses a non-JSON content type with 415 before reading", async () => {
    const error = await rejection(readJsonBody(post("a=1", { "content-type": "application/x-www-form-urlencoded" }), { limitBytes: 100 }));
    expect(error.status).toBe(415);
  });

  it("refuses a declared Content-Length over the limit with 413", async () => {
    const error = await rejection(readJsonBody(post("{}", { "content-type": "application/json", "content-length": "5000" }), { limitBytes: 100 }));
    expect(error.status).toBe(413);
  });

  it("refuses a streamed body that grows past the limit with 413", async () => {
    const chunk = new TextEncoder().encode(`"${"x".repeat(60)}`);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk);
        controller.enqueue(chunk);
        controller.close();
      },
    });
    const error = await rejection(readJsonBody(post(stream), { limitBytes: 100 }));
    expect(error.status).toBe(413);
    expect(error.detail).toContain("0 KiB");
  });

  it.each([["{"], ["{'a':1}"], [""], ["   "]])("answers 400 for malformed JSON %j", async (body) => {
    const error = await rejection(readJsonBody(post(body), { limitBytes: 100 }));
    expect(error.status).toBe(400);
    expect(error.code).toBe("malformed_json");
  });

  it("answers 400 for bytes that are not UTF-8", async () => {
    const error = await rejection(readJsonBody(post(new Uint8Array([0x22, 0xff, 0xfe, 0x22])), { limitBytes: 100 }));
    expect(error.status).toBe(400);
  });

  it("answers 422 for text the database cannot store, naming where it is", async () => {
    const body = JSON.stringify({ name: "A\u0000B", tags: ["ok", "\ud800"] });
    const error = await rejection(readJsonBody(post(body), { limitBytes: 1000 }));
    expect(error.status).toBe(422);
    expect(error.errors?.map((e) => e.path)).toEqual(["name", "tags[1]"]);
  });

  it("lets a caller that must verify a signature first opt out of the text check", async () => {
    const { value } = await readJsonBody(post(JSON.stringify({ name: "A\u0000B" })), { limitBytes: 1000, rejectUnstorableText: false });
    expect(value).toEqual({ name: "A\u0000B" });
  });

  it("answers 400, not a stack overflow, for a small body nested 5,000 levels deep", async () => {
    const body = "[".repeat(5000) + "]".repeat(5000);
    const error = await rejection(readJsonBody(post(body), { limitBytes: 16 * 1024 }));
    expect(error.status).toBe(400);
    expect(error.code).toBe("malformed_json");
    expect(error.detail).toContain("deeper than 32");
  });

  it("accepts nesting up to the limit", async () => {
    const body = '{"a":'.repeat(MAX_JSON_DEPTH - 1) + "[1]" + "}".repeat(MAX_JSON_DEPTH - 1);
    await expect(readJsonBody(post(body), { limitBytes: 1000 })).resolves.toBeTruthy();
    const deeper = '{"a":'.repeat(MAX_JSON_DEPTH) + "[1]" + "}".repeat(MAX_JSON_DEPTH);
    expect((await rejection(readJsonBody(post(deeper), { limitBytes: 1000 }))).code).toBe("malformed_json");
  });
});

describe("exceedsJsonDepth", () => {
  it("counts brackets outside strings only, escapes included", () => {
    expect(exceedsJsonDepth(JSON.stringify({ a: "[[[[[[", b: '\\"{{{{' }), 2)).toBe(false);
    expect(exceedsJsonDepth('["\\\\", [[1]]]', 3)).toBe(false);
    expect(exceedsJsonDepth('["\\\\", [[[1]]]]', 3)).toBe(true);
    expect(exceedsJsonDepth("[[]][[]][[]]", 2)).toBe(false);
  });
});
