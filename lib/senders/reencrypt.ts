// `npm run secrets:reencrypt`: moves every stored sender secret to the current encryption key, so
// that an old key can leave ENCRYPTION_KEYS (and v1 ciphertexts stop depending on AUTH_SECRET).
import { and, eq, isNotNull, or } from "drizzle-orm";
import type { Executor } from "@/db";
import { senders } from "@/db/schema";
import { currentKeyring, decryptSecret, encryptSecret, isCurrent } from "@/lib/crypto/secrets";

const COLUMNS = ["accessTokenEncrypted", "appSecretEncrypted", "verifyTokenEncrypted"] as const;

export interface ReencryptResult {
  /** Secrets rewritten under the current key. */
  reencrypted: number;
  /** Secrets that were under the current key already. */
  unchanged: number;
  keyId: string;
}

/**
 * Rewrites each sender's secrets that are not under the current key. A row is updated only if its
 * ciphertexts are still the ones read, so a settings change made meanwhile is never overwritten
 * (it was written under the current key anyway). Throws, before writing that row, for a secret no
 * configured key can read. `workspaceId` limits the run to one workspace.
 */
export async function reencryptSenderSecrets(db: Executor, options: { workspaceId?: string } = {}): Promise<ReencryptResult> {
  // Without a configured key the development key derived from AUTH_SECRET would become current,
  // and a production server could no longer read anything this run wrote.
  if (!process.env.ENCRYPTION_KEY && !process.env.ENCRYPTION_KEYS) {
    throw new Error("Set ENCRYPTION_KEYS (or ENCRYPTION_KEY) as the server has it before re-encrypting: the first key becomes the one every secret uses.");
  }
  const ring = currentKeyring();
  const rows = await db
    .select({ id: senders.id, accessTokenEncrypted: senders.accessTokenEncrypted, appSecretEncrypted: senders.appSecretEncrypted, verifyTokenEncrypted: senders.verifyTokenEncrypted })
    .from(senders)
    .where(
      and(
        or(...COLUMNS.map((column) => isNotNull(senders[column]))),
        options.workspaceId ? eq(senders.workspaceId, options.workspaceId) : undefined,
      ),
    );
  let reencrypted = 0;
  let unchanged = 0;
  for (const row of rows) {
    const changes: Partial<Record<(typeof COLUMNS)[number], string>> = {};
    for (const column of COLUMNS) {
      const sealed = row[column];
      if (!sealed) continue;
      if (isCurrent(sealed, ring)) {
        unchanged++;
        continue;
      }
      changes[column] = encryptSecret(decryptSecret(sealed, ring), ring);
    }
    const columns = Object.keys(changes) as (typeof COLUMNS)[number][];
    if (columns.length === 0) continue;
    const updated = await db
      .update(senders)
      .set(changes)
      .where(and(eq(senders.id, row.id), ...columns.map((column) => eq(senders[column], row[column]!))))
      .returning({ id: senders.id });
    if (updated.length > 0) reencrypted += columns.length;
  }
  return { reencrypted, unchanged, keyId: ring.current.id };
}
