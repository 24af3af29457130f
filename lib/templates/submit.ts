// Submitting a template written in the app (editor or POST /api/v1/templates) for review: Meta's
// rules first (definition.ts), then the sender's channel (WhatsApp's message_templates, or the
// sandbox's simulated review), then the stored row, PENDING until the review decides.
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { templates } from "@/db/schema";
import { recordAudit, type AuditActor } from "@/lib/audit/service";
import { ChannelRequestError, getChannel } from "@/lib/channels";
import { newId } from "@/lib/crypto/random";
import { ApiError, validationFailed } from "@/lib/http/errors";
import { campaignSenderRow, templateAccount } from "@/lib/senders/service";
import { definitionComponents, definitionFormat, templateDefinitionIssues, type TemplateDefinition } from "./definition";
import { channelFailureExtensions, SANDBOX_EXTERNAL_PREFIX, templateChannelSender, toTemplateView, type TemplateView } from "./service";

export async function submitTemplate(
  db: Executor,
  workspaceId: string,
  input: TemplateDefinition & { senderId?: string },
  actor: AuditActor,
): Promise<TemplateView> {
  const { senderId, ...definition } = input;
  const issues = templateDefinitionIssues(definition);
  if (issues.length > 0) {
    throw validationFailed(
      issues.map((issue) => ({ path: issue.path, code: "template_rule", message: issue.message })),
      "The template breaks WhatsApp's rules: nothing was submitted.",
    );
  }
  const sender = await campaignSenderRow(db, workspaceId, senderId);
  const sandbox = sender.provider === "sandbox";
  const account = templateAccount(sender);
  const [existing] = await db
    .select({ id: templates.id })
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.account, account), eq(templates.name, definition.name), eq(templates.language, definition.language)))
    .limit(1);
  if (existing) {
    throw new ApiError("template_exists", `This account already has a template “${definition.name}” in ${definition.language}: choose another name.`, {
      errors: [{ path: "name", code: "template_exists", message: "This name is taken in this language." }],
    });
  }
  const channelSender = templateChannelSender(sender, workspaceId, "submit");
  const submission = {
    name: definition.name,
    language: definition.language,
    category: definition.category,
    parameterFormat: definitionFormat(definition),
    components: definitionComponents(definition),
  };
  let created;
  try {
    created = await getChannel(sender.provider).submitTemplate(channelSender, submission);
  } catch (error) {
    if (!(error instanceof ChannelRequestError)) throw error;
    const { message, code, details, kind } = error.failure;
    const words = `${details && details !== message ? `${message}: ${details}` : message}${code ? ` (code ${code})` : ""}`;
    const extensions = channelFailureExtensions(error);
    if (kind === "graph") throw new ApiError("template_refused", `WhatsApp refused the template. ${words}`, { extensions });
    throw new ApiError("graph_error", words, { extensions });
  }
  const now = new Date();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(templates)
      .values({
        id: newId("tpl"),
        workspaceId,
        externalId: sandbox ? `${SANDBOX_EXTERNAL_PREFIX}${created.externalId}` : created.externalId,
        account,
        name: submission.name,
        language: submission.language,
        category: created.category,
        status: created.status,
        parameterFormat: submission.parameterFormat,
        components: submission.components,
        submittedAt: now,
      })
      .returning();
    await recordAudit(tx, {
      workspaceId,
      actor,
      action: "template.submitted",
      targetType: "template",
      targetId: row!.id,
      metadata: { name: submission.name, language: submission.language, category: submission.category },
    });
    return toTemplateView(row!);
  });
}
