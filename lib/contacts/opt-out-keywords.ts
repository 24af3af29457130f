// The workspace's own opt-out keywords (besides STOP and UNSUBSCRIBE), set in Contacts settings.
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db";
import { workspaces } from "@/db/schema";
import { recordAudit, type AuditActor } from "@/lib/audit/service";
import { notFound } from "@/lib/http/errors";
import { BUILT_IN_OPT_OUT_KEYWORDS, normaliseKeyword, OPT_IN_KEYWORDS } from "./opt-out";

export const MAX_OPT_OUT_KEYWORDS = 20;
export const MAX_OPT_OUT_KEYWORD_LENGTH = 40;

const keywordSchema = z
  .string({ error: "Expected a keyword as text." })
  .transform(normaliseKeyword)
  .pipe(
    z
      .string()
      .min(1, "Write the keyword, or remove the empty row.")
      .max(MAX_OPT_OUT_KEYWORD_LENGTH, `At most ${MAX_OPT_OUT_KEYWORD_LENGTH} characters.`)
      .regex(/^[\p{L}\p{N}][\p{L}\p{N}' -]*$/u, "Letters, digits, spaces, hyphens and apostrophes only (a whole reply such as ARRET or NO MORE).")
      .refine((keyword) => !(OPT_IN_KEYWORDS as readonly string[]).includes(keyword), {
        message: "START opts a contact back in; it cannot also opt them out.",
      }),
  );

/** `PUT /api/workspace/opt-out-keywords`: the full list, replacing the stored one. */
export const optOutKeywordsInputSchema = z.object({
  keywords: z.array(keywordSchema).max(MAX_OPT_OUT_KEYWORDS, `At most ${MAX_OPT_OUT_KEYWORDS} keywords.`),
});
export type OptOutKeywordsInput = z.input<typeof optOutKeywordsInputSchema>;

export interface OptOutKeywordsView {
  /** The workspace's own keywords, upper case, in the order given. */
  keywords: string[];
  /** Always opt out. */
  builtIn: string[];
  /** Opt back in. */
  optIn: string[];
}

function view(keywords: string[]): OptOutKeywordsView {
  return { keywords, builtIn: [...BUILT_IN_OPT_OUT_KEYWORDS], optIn: [...OPT_IN_KEYWORDS] };
}

export async function getOptOutKeywords(db: Executor, workspaceId: string): Promise<OptOutKeywordsView> {
  const [row] = await db.select({ keywords: workspaces.optOutKeywords }).from(workspaces).where(eq(workspaces.id, workspaceId)).limit(1);
  if (!row) throw notFound("The workspace no longer exists.");
  return view(row.keywords ?? []);
}

/** Replaces the list. Built-in keywords and repeats are dropped (they would change nothing). */
export async function setOptOutKeywords(db: Executor, workspaceId: string, input: z.output<typeof optOutKeywordsInputSchema>, actor: AuditActor): Promise<OptOutKeywordsView> {
  const keywords = [...new Set(input.keywords)].filter((keyword) => !(BUILT_IN_OPT_OUT_KEYWORDS as readonly string[]).includes(keyword));
  return db.transaction(async (tx) => {
    const [previous] = await tx.select({ keywords: workspaces.optOutKeywords }).from(workspaces).where(eq(workspaces.id, workspaceId)).for("update");
    if (!previous) throw notFound("The workspace no longer exists.");
    await tx.update(workspaces).set({ optOutKeywords: keywords }).where(eq(workspaces.id, workspaceId));
    await recordAudit(tx, {
      workspaceId,
      actor,
      action: "workspace.opt_out_keywords_changed",
      targetType: "workspace",
      targetId: workspaceId,
      metadata: { keywords, previous: previous.keywords ?? [] },
    });
    return view(keywords);
  });
}
