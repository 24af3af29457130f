// A server shaped like `next start` on SIGTERM (stop listening, wait for the requests in flight,
// then exit) whose one request waits on the database for good. Run by lib/shutdown.test.ts.
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
if (process.env.HUNG_SERVER_DEADLINE_MS) {
  installShutdownDeadline({ deadlineMs: Number(process.env.HUNG_SERVER_DEADLINE_MS), closeDatabase: closeDb });
}
