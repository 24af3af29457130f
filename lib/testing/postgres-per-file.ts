// On Postgres every test file gets a database of its own, copied from a migrated template the
// global setup made: files never see each other's rows, so they can run side by side.
import postgres from "postgres";

const TEMPLATE = "TEST_DATABASE_TEMPLATE";

export function postgresTemplateEnvironment(templateUrl: string): Record<string, string> {
  return { [TEMPLATE]: templateUrl };
}

type Admin = ReturnType<typeof postgres>;

/**
 * A worker's copies, across its files (test files share the worker's process: isolate: false). A copy
 * and a drop each wait about a quarter of a second on the server's disk: the next file's copy is made
 * while this file runs, and a file's drop runs while the next one does.
 */
type Copies = { admin: Admin; next?: Promise<string>; drops: Promise<void> };
const worker = globalThis as { __sendstreamTestCopies?: Copies };

async function copyTemplate(admin: Admin, templateName: string): Promise<string> {
  const name = `${templateName}_f${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  // Two files copying the template at the same moment: Postgres refuses the second while the first
  // holds the template ("being accessed by other users"); it is free again a moment later.
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.unsafe(`create database "${name}" template "${templateName}"`);
      return name;
    } catch (error) {
      if ((error as { code?: string }).code !== "55006" || attempt === 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/**
 * Points DATABASE_URL at a fresh copy of the template for this file; returns its drop, which the
 * file's teardown calls once its connections are closed. Copies the worker leaves when it exits (the
 * next file's, a drop cut short) carry the template's name: the global teardown drops them.
 */
export async function createFileDatabase(): Promise<(() => Promise<void>) | null> {
  const templateUrl = process.env[TEMPLATE];
  if (!templateUrl) return null;
  const templateName = new URL(templateUrl).pathname.slice(1);
  const copies = (worker.__sendstreamTestCopies ??= {
    admin: postgres(templateUrl.replace(/\/[^/]+$/, "/postgres"), { max: 2, onnotice: () => {} }),
    drops: Promise.resolve(),
  });
  const prepared = copies.next;
  copies.next = undefined;
  const name = (await prepared?.catch(() => undefined)) ?? (await copyTemplate(copies.admin, templateName));
  const next = copyTemplate(copies.admin, templateName);
  next.catch(() => {}); // the next file copies again if this one failed
  copies.next = next;
  const url = new URL(templateUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  return async () => {
    copies.drops = copies.drops.then(() => copies.admin.unsafe(`drop database if exists "${name}" with (force)`).then(() => {}, () => {}));
  };
}
