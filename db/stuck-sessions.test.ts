import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { getDb } from "./index";
import { APPLICATION_NAME } from "./postgres-client";
import { endStuckSessions } from "./stuck-sessions";

const url = process.env.DATABASE_URL;
const limits = { statementMs: 0, idleInTransactionMs: 300, queryMs: 0, transactionMs: 0 };

describe.skipIf(!url)("stuck database sessions", () => {
  it("ends this application's sessions left idle in a transaction past the limit, and no others", async () => {
    // Sessions with no server-side limit of their own (as behind a pooler).
    const ours = postgres(url!, { max: 1, onnotice: () => {}, connection: { application_name: APPLICATION_NAME } });
    const theirs = postgres(url!, { max: 1, onnotice: () => {}, connection: { application_name: "someone-else" } });
    const leftOpen: Promise<unknown>[] = [];
    try {
      for (const client of [ours, theirs]) {
        const entered = new Promise<void>((resolve) => {
          leftOpen.push(
            client
              .begin(async (tx) => {
                await tx`select 1`;
                resolve();
                await new Promise((wait) => setTimeout(wait, 5_000));
              })
              .catch((error: unknown) => error),
          );
        });
        await entered;
      }
      await new Promise((resolve) => setTimeout(resolve, 600));
      const ended = await endStuckSessions(await getDb(), limits);
      expect(ended).toHaveLength(1);
      expect(ended[0]).toMatchObject({ state: "idle in transaction" });
      const [ourOutcome, theirOutcome] = await Promise.all(leftOpen);
      expect(ourOutcome).toMatchObject({ code: "CONNECTION_CLOSED" });
      expect(theirOutcome).toBeUndefined();
    } finally {
      await Promise.all([ours.end({ timeout: 1 }), theirs.end({ timeout: 1 })]);
    }
  });
});
