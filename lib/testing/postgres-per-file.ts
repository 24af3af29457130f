// On Postgres every test file gets a database of its own, copied from a migrated template the
// global setup made: files never see each other's rows, so they can run side by side.
import postgres from "postgres";

const TEMPLATE = "TEST_DATABASE_TEMPLATE";

export function postgresTemplateEnvironment(templateUrl: string): Record<string, string> {
  return { [TEMPLATE]: templateUrl };
}

/** Creates this file's database from the template and points DATABASE_URL at it; returns its drop. */
export async function createFileDatabase(): Promise<(() => Promise<void>) | null> {
  const templateUrl = process.env[TEMPLATE];
  if (!templateUrl) return null;
  const template = new URL(templateUrl);
  const templateName = template.pathname.slice(1);
  const name = `${templateName}_f${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(templateUrl.replace(/\/[^/]+$/, "/postgres"), { max: 1, onnotice: () => {} });
  // Two files copying the template at the same moment: Postgres refuses the second while the first
  // holds the template ("being accessed by other users"); it is free again a moment later.
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.unsafe(`create database "${name}" template "${templateName}"`);
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== "55006" || attempt === 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
  const url = new URL(templateUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  return async () => {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end({ timeout: 5 });
  };
}
