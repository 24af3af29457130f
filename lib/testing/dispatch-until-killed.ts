// A dispatching process for tests that kill it (`tsx lib/testing/dispatch-until-killed.ts <workspaceId>`,
// DATABASE_URL set): one pass over the workspace's due messages whose provider prints `sending <id>`
// and never answers, so a SIGKILL finds a request open and other messages still only claimed.
import { getDb } from "@/db";
import type { Channel } from "@/lib/channels";
import { runDispatch } from "@/lib/messaging/dispatcher";
import { fakeChannels } from "./fake-channels";

const neverAnswers: Channel["send"] = (message) => {
  process.stdout.write(`sending ${message.id}\n`);
  return new Promise(() => {});
};

async function main(): Promise<void> {
  const workspaceId = process.argv[2];
  if (!workspaceId) throw new Error("Pass the workspace id.");
  const db = await getDb();
  await runDispatch({ db, channels: fakeChannels(neverAnswers) }, { workspaceIds: [workspaceId], deadlineMs: 120_000 });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
