// `npm run db:migrate`, `npm run db:seed` and `npm run secrets:reencrypt`: explicit, idempotent, for either database.
import { closeDb, getDb, isEmbedded, migrate } from "./index";
import { DEMO_USER, seedDemoData } from "./seed";

const command = process.argv[2];

async function main() {
  const db = await getDb();
  const target = isEmbedded() ? "embedded database" : "Postgres (DATABASE_URL)";
  if (command === "migrate") {
    await migrate(db);
    console.log(`Migrations applied to the ${target}.`);
  } else if (command === "seed") {
    await migrate(db);
    const { created, seeded } = await seedDemoData(db);
    console.log(
      created || seeded ? `Demo data created in the ${target}. Sign in as ${DEMO_USER.email} / ${DEMO_USER.password}.` : `Demo data already present in the ${target}.`,
    );
  } else if (command === "reencrypt") {
    // v1 secrets may be under the key derived from the session secret the server generated.
    const { prepareAuthEnvironment } = await import("@/lib/auth/environment");
    prepareAuthEnvironment();
    const { reencryptSenderSecrets } = await import("@/lib/senders/reencrypt");
    const { reencrypted, unchanged, keyId } = await reencryptSenderSecrets(db);
    console.log(`Re-encrypted ${reencrypted} stored secret(s) with key "${keyId}" in the ${target}; ${unchanged} already used it.`);
  } else {
    throw new Error(`Unknown command "${command}". Use "migrate", "seed" or "reencrypt".`);
  }
}

main()
  .then(() => closeDb())
  .catch(async (error) => {
    console.error(error instanceof Error ? error.message : error);
    await closeDb().catch(() => {});
    process.exit(1);
  });
