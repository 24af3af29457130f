// A server shaped like `next start` on SIGTERM (stop listening, wait for the requests in flight,
// then exit) whose one request waits on the database for good. Run by lib/shutdown.test.ts.
// HUNG_SERVER_FINISH_MS: work outside requests that takes this long once signalled ("forever": never ends).
import http from "node:http";
import { sql } from "drizzle-orm";
import { closeDb, getDb } from "@/db";
import { installShutdownDeadline } from "@/lib/shutdown";

const db = await getDb();
const server = http.createServer((_request, response) => {
  // On Postgres a statement that never ends; on the embedded database a request that never does.
  const forever = process.env.DATABASE_URL ? db.execute(sql`select pg_sleep(3600)`) : new Promise(() => {});
  void forever.then(() => response.end("done"), () => response.end("failed"));
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : ""}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
const finishMs = process.env.HUNG_SERVER_FINISH_MS;
let finishing: Promise<void> | undefined;
const finishFirst = () =>
  (finishing ??= new Promise<void>((resolve) => {
    // Work waiting on something (a socket, a timer) holds the process open, as this does.
    if (finishMs === "forever") return void setInterval(() => {}, 60_000);
    setTimeout(() => {
      console.log("finished");
      resolve();
    }, Number(finishMs));
  }));
if (process.env.HUNG_SERVER_DEADLINE_MS) {
  installShutdownDeadline({ deadlineMs: Number(process.env.HUNG_SERVER_DEADLINE_MS), closeDatabase: closeDb, ...(finishMs ? { finishFirst } : {}) });
}
