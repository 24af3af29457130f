// The workspace's sending identity: the sandbox or a WhatsApp Cloud API number, secrets sealed at rest.
import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { senders } from "@/db/schema";
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from "@/lib/audit/service";
import { decryptSecret, encryptSecret, maskSecret } from "@/lib/crypto/secrets";
import { newId } from "@/lib/crypto/random";
import { validationFailed, type FieldError } from "@/lib/http/errors";
import { GraphApiError, graphConfigFromEnv } from "@/lib/whatsapp/graph";
import { DEFAULT_THROUGHPUT_PER_SECOND, describeMessagingLimit, getPhoneNumberInfo } from "@/lib/whatsapp/business";
import { senderConnectionSchema, senderSettingsSchema, type SenderConnectionInput, type SenderSettingsInput } from "./schemas";

type SenderRow = typeof senders.$inferSelect;

export const SANDBOX_TIER_LABEL = "Sandbox — unlimited";

/** What the settings page and APIs may show: secrets only as masks. */
export interface SenderView {
  provider: "sandbox" | "whatsapp";
  phoneNumberId: string | null;
  wabaId: string | null;
  displayPhoneNumber: string | null;
  accessToken: string | null;
  appSecret: string | null;
  verifyToken: string | null;
  throughputPerSecond: number;
  messagingTier: string | null;
  messagingTierLabel: string;
  configured: boolean;
  updatedAt: string;
}

export interface SenderCredentials {
  id: string;
  provider: "sandbox" | "whatsapp";
  phoneNumberId: string | null;
  wabaId: string | null;
  accessToken: string | null;
  appSecret: string | null;
  verifyToken: string | null;
  throughputPerSecond: number;
}

/** The workspace's sender row, created as a sandbox sender when missing. */
export async function getSenderRow(db: Executor, workspaceId: string): Promise<SenderRow> {
  const [row] = await db.select().from(senders).where(eq(senders.workspaceId, workspaceId)).limit(1);
  if (row) return row;
  await db.insert(senders).values({ id: newId("snd"), workspaceId, provider: "sandbox" }).onConflictDoNothing({ target: senders.workspaceId });
  const [created] = await db.select().from(senders).where(eq(senders.workspaceId, workspaceId)).limit(1);
  if (!created) throw new Error(`Could not create the sender of workspace ${workspaceId}.`);
  return created;
}

/** A WhatsApp sender is usable once it has its ids and an access token; the sandbox always is. */
export function isSenderConfigured(row: Pick<SenderRow, "provider" | "phoneNumberId" | "wabaId" | "accessTokenEncrypted">): boolean {
  return row.provider === "sandbox" || Boolean(row.phoneNumberId && row.wabaId && row.accessTokenEncrypted);
}

export function messagingTierLabel(row: Pick<SenderRow, "provider" | "messagingTier">): string {
  if (row.provider === "sandbox") return SANDBOX_TIER_LABEL;
  return describeMessagingLimit(row.messagingTier) ?? "Unknown — run Test connection";
}

export function toSenderView(row: SenderRow): SenderView {
  const mask = (sealed: string | null) => (sealed ? safeMask(sealed) : null);
  return {
    provider: row.provider,
    phoneNumberId: row.phoneNumberId,
    wabaId: row.wabaId,
    displayPhoneNumber: row.displayPhoneNumber,
    accessToken: mask(row.accessTokenEncrypted),
    appSecret: mask(row.appSecretEncrypted),
    verifyToken: mask(row.verifyTokenEncrypted),
    throughputPerSecond: row.throughputPerSecond,
    messagingTier: row.messagingTier,
    messagingTierLabel: messagingTierLabel(row),
    configured: isSenderConfigured(row),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function safeMask(sealed: string): string {
  try {
    return maskSecret(decryptSecret(sealed));
  } catch {
    return "••••";
  }
}

export async function getSender(db: Executor, workspaceId: string): Promise<SenderView> {
  return toSenderView(await getSenderRow(db, workspaceId));
}

/** Decrypted credentials, for sending and webhook verification only; never return these to a client. */
export async function loadSenderCredentials(db: Executor, workspaceId: string): Promise<SenderCredentials> {
  const row = await getSenderRow(db, workspaceId);
  const open = (sealed: string | null) => (sealed ? decryptSecret(sealed) : null);
  return {
    id: row.id,
    provider: row.provider,
    phoneNumberId: row.phoneNumberId,
    wabaId: row.wabaId,
    accessToken: open(row.accessTokenEncrypted),
    appSecret: open(row.appSecretEncrypted),
    verifyToken: open(row.verifyTokenEncrypted),
    throughputPerSecond: row.throughputPerSecond,
  };
}

/**
 * Switches between the sandbox and WhatsApp Cloud API. Secrets left blank keep their stored value;
 * a first WhatsApp setup needs the access token. Switching to the sandbox keeps the credentials
 * so switching back does not mean entering them again.
 */
/**
 * Saves the sender settings; the audit row names the fields that changed (a secret field only as
 * "replaced", never its value).
 */
export async function updateSenderSettings(
  db: Executor,
  workspaceId: string,
  input: SenderSettingsInput,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<SenderView> {
  const settings = senderSettingsSchema.parse(input);
  return db.transaction(async (tx) => {
    const row = await getSenderRow(tx, workspaceId);
    const audit = async (changed: string[]) => {
      if (changed.length === 0) return;
      await recordAudit(tx, { workspaceId, actor, action: "sender.settings_changed", targetType: "sender", targetId: row.id, metadata: { changed } });
    };
    if (settings.provider === "sandbox") {
      const [updated] = await tx
        .update(senders)
        .set({ provider: "sandbox", updatedAt: new Date() })
        .where(eq(senders.id, row.id))
        .returning();
      await audit(row.provider === "sandbox" ? [] : ["provider"]);
      return toSenderView(updated ?? row);
    }
    const errors: FieldError[] = [];
    if (!settings.accessToken && !row.accessTokenEncrypted) {
      errors.push({ path: "accessToken", code: "required", message: "Paste the access token of your system user." });
    }
    if (errors.length > 0) throw validationFailed(errors);
    const numberChanged = row.phoneNumberId !== settings.phoneNumberId;
    const [updated] = await tx
      .update(senders)
      .set({
        provider: "whatsapp",
        phoneNumberId: settings.phoneNumberId,
        wabaId: settings.wabaId,
        ...(settings.accessToken ? { accessTokenEncrypted: encryptSecret(settings.accessToken) } : {}),
        ...(settings.appSecret ? { appSecretEncrypted: encryptSecret(settings.appSecret) } : {}),
        ...(settings.verifyToken ? { verifyTokenEncrypted: encryptSecret(settings.verifyToken) } : {}),
        // A different number has its own name and limits: forget the old ones until the next test.
        ...(numberChanged ? { displayPhoneNumber: null, messagingTier: null, throughputPerSecond: DEFAULT_THROUGHPUT_PER_SECOND } : {}),
        updatedAt: new Date(),
      })
      .where(eq(senders.id, row.id))
      .returning();
    await audit([
      ...(row.provider !== "whatsapp" ? ["provider"] : []),
      ...(numberChanged ? ["phoneNumberId"] : []),
      ...(row.wabaId !== settings.wabaId ? ["wabaId"] : []),
      ...(settings.accessToken ? ["accessToken"] : []),
      ...(settings.appSecret ? ["appSecret"] : []),
      ...(settings.verifyToken ? ["verifyToken"] : []),
    ]);
    return toSenderView(updated ?? row);
  });
}

export type ConnectionTestResult =
  | {
      ok: true;
      displayPhoneNumber: string | null;
      verifiedName: string | null;
      qualityRating: string | null;
      throughputLevel: string | null;
      throughputPerSecond: number;
      messagingTier: string | null;
      messagingTierLabel: string;
    }
  | {
      ok: false;
      error: { kind: GraphApiError["kind"]; message: string; code: number | null; subcode: number | null; details: string | null; httpStatus: number | null };
    };

/**
 * Asks the Graph API about the phone number. When it is the stored number, its display number,
 * throughput and messaging tier are saved for the deploy dialog.
 */
export async function testSenderConnection(db: Executor, workspaceId: string, input: SenderConnectionInput): Promise<ConnectionTestResult> {
  const { phoneNumberId, accessToken: typedToken } = senderConnectionSchema.parse(input);
  const row = await getSenderRow(db, workspaceId);
  const accessToken = typedToken ?? (row.accessTokenEncrypted ? decryptSecret(row.accessTokenEncrypted) : undefined);
  if (!accessToken) {
    throw validationFailed([{ path: "accessToken", code: "required", message: "Paste the access token to test the connection." }]);
  }
  try {
    const info = await getPhoneNumberInfo(graphConfigFromEnv(accessToken, 10_000), phoneNumberId);
    if (row.phoneNumberId === phoneNumberId) {
      await db
        .update(senders)
        .set({
          displayPhoneNumber: info.displayPhoneNumber,
          throughputPerSecond: info.throughputPerSecond,
          messagingTier: info.messagingLimit,
          updatedAt: new Date(),
        })
        .where(eq(senders.id, row.id));
    }
    return {
      ok: true,
      displayPhoneNumber: info.displayPhoneNumber,
      verifiedName: info.verifiedName,
      qualityRating: info.qualityRating,
      throughputLevel: info.throughputLevel,
      throughputPerSecond: info.throughputPerSecond,
      messagingTier: info.messagingLimit,
      messagingTierLabel: describeMessagingLimit(info.messagingLimit) ?? "Not reported",
    };
  } catch (error) {
    if (!(error instanceof GraphApiError)) throw error;
    return {
      ok: false,
      error: { kind: error.kind, message: error.message, code: error.code, subcode: error.subcode, details: error.details, httpStatus: error.httpStatus },
    };
  }
}
