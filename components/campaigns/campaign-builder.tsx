"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import {
  AlertCircle,
  ArrowDown,
  Archive,
  ArrowLeft,
  FileText,
  Info,
  Lock,
  MessageSquareText,
  Pause,
  Play,
  Plus,
  RefreshCw,
  Rocket,
  Trash2,
  Webhook,
} from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useFieldArray, useForm, useWatch, type UseFormReturn } from "react-hook-form";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import {
  FIELD_TYPES,
  IDENTIFIER_PATTERN,
  PHONE_ATTRIBUTE,
  campaignEditorSchema,
  type CampaignEditorInput,
  type CampaignEditorValues,
  type FieldType,
  type TriggerConfig,
  type VariableMapping,
} from "@/lib/campaigns/schemas";
import { payloadAttributes, samplePayload } from "@/lib/campaigns/sample";
import type { CampaignView, DeploymentDetails } from "@/lib/campaigns/service";
import type { FieldError } from "@/lib/http/errors";
import { requestJson } from "@/lib/http/client";
import { previewTemplate } from "@/lib/templates/render";
import { attributeText } from "@/lib/templates/resolve";
import type { TemplateView } from "@/lib/templates/service";
import type { TemplateVariable } from "@/lib/templates/types";
import { describeVariable } from "@/lib/templates/variables";
import { cn } from "@/lib/utils";
import { CurlExample, SendingLimits, WebhookUrls } from "./deployment-details";
import { NativeSelect } from "./native-select";
import { CampaignStatusBadge, templateStatusLabel } from "./status-badge";
import { WhatsAppPreview } from "./whatsapp-preview";

type FormValues = CampaignEditorInput;
type Form = UseFormReturn<FormValues, unknown, CampaignEditorValues>;

interface CampaignResponse {
  campaign: CampaignView;
  deployment: DeploymentDetails | null;
}

export interface CampaignBuilderProps {
  initialCampaign: CampaignView;
  initialDeployment: DeploymentDetails | null;
  templates: TemplateView[];
  knownAttributes: string[];
  sender: { provider: "sandbox" | "whatsapp"; name: string };
}

const TYPE_LABELS: Record<FieldType, string> = {
  string: "Text",
  number: "Number",
  boolean: "Yes / no",
  email: "Email",
  date: "Date",
};

const nullIfEmpty = (value: unknown) => (value === "" || value === undefined ? null : value);

/** One mapping row per template variable, keeping what was already mapped for the same key. */
function alignVariables(template: TemplateView | undefined, current: VariableMapping[] | FormValues["messageConfig"]["variables"], attributes: string[]) {
  if (!template) return [];
  const byKey = new Map(current.map((v) => [v.key, v]));
  return template.variables.map((variable) => {
    const existing = byKey.get(variable.key);
    if (existing) return { key: variable.key, attribute: existing.attribute ?? null, fallback: existing.fallback ?? null };
    return { key: variable.key, attribute: guessAttribute(variable, attributes), fallback: null };
  });
}

function guessAttribute(variable: TemplateVariable, attributes: string[]): string | null {
  if (/^\d+$/.test(variable.name)) return null;
  if (attributes.includes(variable.name)) return variable.name;
  if (/^(first_?name|customer_?name)$/i.test(variable.name) && attributes.includes("name")) return "name";
  return null;
}

function toFormValues(campaign: CampaignView, templates: TemplateView[], attributes: string[]): FormValues {
  const template = templates.find((t) => t.id === campaign.templateId);
  return {
    name: campaign.name,
    triggerConfig: { phoneField: campaign.triggerConfig.phoneField, fields: campaign.triggerConfig.fields.map((f) => ({ ...f })) },
    templateId: campaign.templateId,
    messageConfig: { variables: template ? alignVariables(template, campaign.messageConfig.variables, attributes) : [] },
  };
}

/** `triggerConfig.fields[0].field` → `triggerConfig.fields.0.field` (react-hook-form paths). */
function formPath(path: string): string {
  return path.replace(/\[(\d+)\]/g, ".$1");
}

export function CampaignBuilder({ initialCampaign, initialDeployment, templates: initialTemplates, knownAttributes, sender }: CampaignBuilderProps) {
  const router = useRouter();
  const [campaign, setCampaign] = useState(initialCampaign);
  const [deployment, setDeployment] = useState(initialDeployment);
  const [templates, setTemplates] = useState(initialTemplates);
  const [checks, setChecks] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState<null | "save" | "deploy" | "pause" | "resume" | "archive" | "sync">(null);
  const [liveDialog, setLiveDialog] = useState(false);

  const form: Form = useForm<FormValues, unknown, CampaignEditorValues>({
    resolver: zodResolver(campaignEditorSchema),
    defaultValues: toFormValues(initialCampaign, initialTemplates, knownAttributes),
    mode: "onChange",
  });
  const { isDirty } = form.formState;
  const editable = campaign.status === "draft" || campaign.status === "paused";

  useUnsavedChangesWarning(isDirty && editable);

  function applyResponse(response: CampaignResponse) {
    setCampaign(response.campaign);
    setDeployment(response.deployment);
    form.reset(toFormValues(response.campaign, templates, knownAttributes));
  }

  function showServerErrors(errors: FieldError[] | undefined) {
    for (const error of errors ?? []) {
      form.setError(formPath(error.path) as never, { type: "server", message: error.message });
    }
  }

  /** Saves when there are changes; resolves false when the form is invalid or the server refused. */
  async function save(): Promise<boolean> {
    if (!isDirty) return true;
    let saved = false;
    await form.handleSubmit(
      async (values) => {
        const result = await requestJson<CampaignResponse>(`/api/campaigns/${campaign.id}`, {
          method: "PATCH",
          body: { ...values, version: campaign.version },
        });
        if (!result.ok) {
          showServerErrors(result.problem.errors);
          toast.error(result.problem.detail);
          return;
        }
        applyResponse(result.data);
        saved = true;
      },
      () => toast.error("Some fields need attention before saving."),
    )();
    return saved;
  }

  async function onSave() {
    setBusy("save");
    try {
      if (await save()) toast.success("Changes saved");
    } finally {
      setBusy(null);
    }
  }

  async function runAction(action: "deploy" | "pause" | "resume" | "archive") {
    setBusy(action);
    try {
      if ((action === "deploy" || action === "resume") && !(await save())) return;
      const result = await requestJson<CampaignResponse>(`/api/campaigns/${campaign.id}/${action}`, { method: "POST", body: {} });
      if (!result.ok) {
        if (result.status === 422 && result.problem.errors) {
          setChecks(result.problem.errors);
          toast.error(result.problem.detail);
          document.getElementById("builder-flow")?.scrollIntoView({ behavior: "smooth", block: "start" });
        } else {
          toast.error(result.problem.detail);
        }
        return;
      }
      setChecks([]);
      applyResponse(result.data);
      if (action === "deploy") setLiveDialog(true);
      else if (action === "resume") toast.success("Campaign resumed — the webhook accepts requests again.");
      else if (action === "pause") toast.success("Campaign paused — webhook calls now get HTTP 409 and nothing is sent.");
      else toast.success("Campaign archived");
      router.refresh();
    } finally {
      setBusy(null);
    }
  }

  async function syncTemplates() {
    setBusy("sync");
    try {
      const result = await requestJson<{ data: TemplateView[]; total: number }>("/api/templates/sync", { method: "POST", body: {} });
      if (!result.ok) {
        toast.error(result.problem.detail);
        return;
      }
      setTemplates(result.data.data);
      toast.success(`Templates synced: ${result.data.total} found`);
    } finally {
      setBusy(null);
    }
  }

  const senderError = checks.find((c) => c.path === "sender");

  return (
    <form onSubmit={(event) => event.preventDefault()} noValidate className="grid gap-6">
      <header className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0 flex-1">
          <Link href="/campaigns" className="mb-2 inline-flex items-center gap-1 text-xs text-muted-foreground hover:text-foreground">
            <ArrowLeft className="size-3" aria-hidden /> Campaigns
          </Link>
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-xl font-semibold tracking-tight">{campaign.name}</h1>
            <CampaignStatusBadge status={campaign.status} />
            {isDirty && editable && <span className="text-xs text-muted-foreground">Unsaved changes</span>}
          </div>
          <p className="mt-1 text-sm text-muted-foreground">
            Trigger campaign · when your system calls the webhook, one WhatsApp message goes to the phone number in the request.
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          {campaign.status !== "draft" && (
            <Button variant="ghost" asChild>
              <Link href={`/campaigns/${campaign.id}/logs`}>
                <FileText aria-hidden /> View logs
              </Link>
            </Button>
          )}
          {campaign.status !== "archived" && <ArchiveButton disabled={busy !== null} onConfirm={() => runAction("archive")} />}
          {editable && (
            <Button variant="outline" onClick={onSave} disabled={!isDirty || busy !== null}>
              {busy === "save" ? "Saving…" : campaign.status === "draft" ? "Save draft" : "Save changes"}
            </Button>
          )}
          {campaign.status === "draft" && (
            <Button onClick={() => runAction("deploy")} disabled={busy !== null}>
              <Rocket aria-hidden /> {busy === "deploy" ? "Deploying…" : "Deploy"}
            </Button>
          )}
          {campaign.status === "active" && (
            <Button variant="outline" onClick={() => runAction("pause")} disabled={busy !== null}>
              <Pause aria-hidden /> {busy === "pause" ? "Pausing…" : "Pause"}
            </Button>
          )}
          {campaign.status === "paused" && (
            <Button onClick={() => runAction("resume")} disabled={busy !== null}>
              <Play aria-hidden /> {busy === "resume" ? "Resuming…" : "Resume"}
            </Button>
          )}
        </div>
      </header>

      {sender.provider === "sandbox" && (
        <Banner tone="info" icon={<Info aria-hidden />}>
          <strong className="font-medium">Sandbox mode.</strong> Messages are simulated — nothing reaches a real phone. Connect your number in{" "}
          <Link href="/settings/whatsapp" className="font-medium underline underline-offset-2">
            Settings → WhatsApp
          </Link>{" "}
          when you are ready to go live.
        </Banner>
      )}
      {senderError && (
        <Banner tone="error" icon={<AlertCircle aria-hidden />}>
          {senderError.message}{" "}
          <Link href="/settings/whatsapp" className="font-medium underline underline-offset-2">
            Open WhatsApp settings
          </Link>
        </Banner>
      )}
      {campaign.status === "active" && (
        <Banner tone="success" icon={<Lock aria-hidden />}>
          <strong className="font-medium">This campaign is live.</strong> The configuration below is read-only. Pause to edit — while paused, webhook calls are refused
          and nothing is sent.
        </Banner>
      )}
      {campaign.status === "archived" && (
        <Banner tone="muted" icon={<Archive aria-hidden />}>
          This campaign is archived. Its webhook no longer sends messages; its logs stay available.
        </Banner>
      )}

      {deployment && (campaign.status === "active" || campaign.status === "paused") && (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Connect your system</CardTitle>
            <CardDescription>
              Send a POST request with a JSON body to either URL. The URLs stay the same when you pause and resume.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5">
            <WebhookUrls urls={deployment.webhookUrls} />
            <CurlExample curl={deployment.curl} />
            <SendingLimits limits={deployment.limits} />
          </CardContent>
        </Card>
      )}

      <div id="builder-flow" className="grid scroll-mt-6 gap-6 xl:grid-cols-[minmax(0,1fr)_360px]">
        <fieldset disabled={!editable} className="grid min-w-0 gap-0">
          <legend className="sr-only">Campaign configuration</legend>
          {editable && (
            <div className="mb-4 max-w-md">
              <label htmlFor="campaign-name" className="mb-1.5 block text-sm font-medium">
                Campaign name
              </label>
              <Input id="campaign-name" aria-invalid={form.formState.errors.name ? true : undefined} {...form.register("name")} />
              {form.formState.errors.name && (
                <p role="alert" className="mt-1 text-xs font-medium text-destructive">
                  {form.formState.errors.name.message}
                </p>
              )}
            </div>
          )}
          <TriggerNode form={form} checks={checks.filter((c) => c.path.startsWith("trigger"))} knownAttributes={knownAttributes} />
          <Connector />
          <MessageNode
            form={form}
            templates={templates}
            knownAttributes={knownAttributes}
            checks={checks.filter((c) => c.path.startsWith("message"))}
            onSync={syncTemplates}
            syncing={busy === "sync"}
            editable={editable}
          />
        </fieldset>
        <aside className="xl:sticky xl:top-6 xl:self-start">
          <PreviewPanel form={form} templates={templates} businessName={sender.name} />
        </aside>
      </div>

      <Dialog open={liveDialog} onOpenChange={setLiveDialog}>
        <DialogContent className="max-w-2xl">
          <DialogHeader>
            <DialogTitle>Your campaign is live</DialogTitle>
            <DialogDescription>
              Each POST to the webhook sends one WhatsApp message to the phone number in the body. Authenticate with an API key in the{" "}
              <code className="font-mono">x-api-key</code> header.
            </DialogDescription>
          </DialogHeader>
          {deployment && (
            <div className="grid gap-5">
              <SendingLimits limits={deployment.limits} />
              <WebhookUrls urls={deployment.webhookUrls} />
              <CurlExample curl={deployment.curl} />
            </div>
          )}
          <DialogFooter>
            <Button variant="outline" asChild>
              <Link href="/settings/api-keys">Create an API key</Link>
            </Button>
            <Button onClick={() => setLiveDialog(false)}>Done</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </form>
  );
}

function Banner({ tone, icon, children }: { tone: "info" | "error" | "success" | "muted"; icon: React.ReactNode; children: React.ReactNode }) {
  const tones = {
    info: "border-sky-200 bg-sky-50 text-sky-900",
    error: "border-destructive/30 bg-destructive/5 text-destructive",
    success: "border-emerald-200 bg-emerald-50 text-emerald-900",
    muted: "border-border bg-muted text-muted-foreground",
  };
  return (
    <div role={tone === "error" ? "alert" : "status"} className={cn("flex items-start gap-2.5 rounded-lg border px-4 py-3 text-sm [&_svg]:mt-0.5 [&_svg]:size-4 [&_svg]:shrink-0", tones[tone])}>
      {icon}
      <div>{children}</div>
    </div>
  );
}

function CheckList({ checks }: { checks: FieldError[] }) {
  if (checks.length === 0) return null;
  return (
    <ul className="grid gap-1.5 rounded-lg border border-destructive/30 bg-destructive/5 p-3" aria-label="Problems to fix">
      {checks.map((check) => (
        <li key={`${check.path}:${check.code}`} className="flex items-start gap-2 text-sm text-destructive">
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
          {check.message}
        </li>
      ))}
    </ul>
  );
}

function NodeBadge({ step, icon }: { step: number; icon: React.ReactNode }) {
  return (
    <div className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary [&_svg]:size-5" aria-hidden>
      {icon}
      <span className="sr-only">Step {step}</span>
    </div>
  );
}

function Connector() {
  return (
    <div className="flex flex-col items-center py-1" aria-hidden>
      <div className="h-5 w-px bg-border" />
      <span className="rounded-full border bg-background px-2.5 py-0.5 text-xs text-muted-foreground">then send</span>
      <div className="h-4 w-px bg-border" />
      <ArrowDown className="-mt-1 size-4 text-muted-foreground" />
    </div>
  );
}

function TriggerNode({ form, checks, knownAttributes }: { form: Form; checks: FieldError[]; knownAttributes: string[] }) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "triggerConfig.fields" });
  const trigger = useWatch({ control: form.control, name: "triggerConfig" });
  const errors = form.formState.errors.triggerConfig;
  const example = useMemo(() => samplePayload(usableTrigger(trigger)), [trigger]);

  return (
    <Card className="gap-4 border-l-4 border-l-primary" aria-labelledby="trigger-node-title" role="group">
      <CardHeader>
        <div className="flex items-start gap-3">
          <NodeBadge step={1} icon={<Webhook />} />
          <div>
            <CardTitle id="trigger-node-title">Trigger: your system calls the webhook</CardTitle>
            <CardDescription className="mt-1">
              Choose which fields of the JSON request body Sendstream reads, and where each one is saved on the contact.
            </CardDescription>
          </div>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-2 rounded-lg border bg-muted/30 p-3">
          <div className="grid items-end gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto]">
            <div className="grid gap-1.5">
              <label htmlFor="phone-field" className="text-xs font-medium">
                Phone number field
              </label>
              <Input
                id="phone-field"
                className="font-mono"
                aria-invalid={errors?.phoneField ? true : undefined}
                aria-describedby="phone-field-hint"
                {...form.register("triggerConfig.phoneField")}
              />
            </div>
            <div className="grid gap-1.5">
              <span className="text-xs font-medium">Saves to</span>
              <div className="flex h-9 items-center gap-1.5 rounded-md border border-dashed px-3 font-mono text-sm text-muted-foreground">
                <Lock className="size-3.5" aria-hidden /> {PHONE_ATTRIBUTE}
              </div>
            </div>
            <span className="pb-2 text-xs text-muted-foreground">Always required</span>
          </div>
          <p id="phone-field-hint" className="text-xs text-muted-foreground">
            The recipient&apos;s WhatsApp number in international format, e.g. <code className="font-mono">+14155552671</code>. This mapping cannot be removed.
          </p>
          {errors?.phoneField && (
            <p role="alert" className="text-xs font-medium text-destructive">
              {errors.phoneField.message}
            </p>
          )}
        </div>

        <div className="grid gap-2">
          {fields.length > 0 && (
            <div className="hidden grid-cols-[minmax(0,1fr)_minmax(0,1fr)_8rem_5rem_2.25rem] gap-2 px-0.5 text-xs font-medium text-muted-foreground sm:grid">
              <span>Request field</span>
              <span>Saves to contact attribute</span>
              <span>Type</span>
              <span>Required</span>
              <span className="sr-only">Remove</span>
            </div>
          )}
          <datalist id="contact-attributes">
            {knownAttributes
              .filter((a) => a !== PHONE_ATTRIBUTE)
              .map((attribute) => (
                <option key={attribute} value={attribute} />
              ))}
          </datalist>
          {fields.map((row, index) => {
            const rowErrors = errors?.fields?.[index];
            const n = index + 1;
            const fieldRegister = form.register(`triggerConfig.fields.${index}.field`);
            return (
              <div key={row.id} className="grid gap-1">
                <div className="grid grid-cols-2 items-center gap-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_8rem_5rem_2.25rem]">
                  <Input
                    aria-label={`Request field ${n}`}
                    placeholder="order_number"
                    className="font-mono"
                    aria-invalid={rowErrors?.field ? true : undefined}
                    {...fieldRegister}
                    onBlur={(event) => {
                      void fieldRegister.onBlur(event);
                      const value = event.target.value.trim();
                      if (value && !form.getValues(`triggerConfig.fields.${index}.attribute`)) {
                        form.setValue(`triggerConfig.fields.${index}.attribute`, value, { shouldDirty: true, shouldValidate: true });
                      }
                    }}
                  />
                  <Input
                    aria-label={`Contact attribute ${n}`}
                    placeholder="same as the field"
                    list="contact-attributes"
                    className="font-mono"
                    aria-invalid={rowErrors?.attribute ? true : undefined}
                    {...form.register(`triggerConfig.fields.${index}.attribute`)}
                  />
                  <NativeSelect aria-label={`Type ${n}`} {...form.register(`triggerConfig.fields.${index}.type`)}>
                    {FIELD_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {TYPE_LABELS[type]}
                      </option>
                    ))}
                  </NativeSelect>
                  <label className="flex items-center gap-2 text-sm">
                    <input type="checkbox" className="size-4 accent-[var(--primary)]" aria-label={`Required ${n}`} {...form.register(`triggerConfig.fields.${index}.required`)} />
                    <span className="sm:sr-only">Required</span>
                  </label>
                  <Button type="button" variant="ghost" size="icon" aria-label={`Remove field ${n}`} onClick={() => remove(index)}>
                    <Trash2 aria-hidden />
                  </Button>
                </div>
                {(rowErrors?.field || rowErrors?.attribute) && (
                  <p role="alert" className="text-xs font-medium text-destructive">
                    {rowErrors.field?.message ?? rowErrors.attribute?.message}
                  </p>
                )}
              </div>
            );
          })}
          <div>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => append({ field: "", attribute: "", type: "string", required: true }, { shouldFocus: true })}
            >
              <Plus aria-hidden /> Add field
            </Button>
            <span className="ml-3 text-xs text-muted-foreground">e.g. the customer&apos;s name or the order number. Other fields in the request are ignored.</span>
          </div>
          {errors?.fields?.root?.message && <p className="text-xs font-medium text-destructive">{errors.fields.root.message}</p>}
        </div>

        <details className="group rounded-lg border">
          <summary className="cursor-pointer px-3 py-2 text-sm font-medium select-none">Example request body</summary>
          <pre className="overflow-x-auto border-t bg-muted/40 px-3 py-2 font-mono text-xs" data-testid="sample-payload">
            {JSON.stringify(example, null, 2)}
          </pre>
        </details>
        <CheckList checks={checks} />
      </CardContent>
    </Card>
  );
}

/** The trigger mapping with half-typed rows left out (for the example body and the preview). */
function usableTrigger(trigger: FormValues["triggerConfig"] | undefined): TriggerConfig {
  const phoneField = trigger?.phoneField && IDENTIFIER_PATTERN.test(trigger.phoneField) ? trigger.phoneField : "phone";
  return {
    phoneField,
    fields: (trigger?.fields ?? []).filter((f) => f.field && IDENTIFIER_PATTERN.test(f.field) && f.field !== phoneField),
  };
}

function attributeOptions(trigger: FormValues["triggerConfig"] | undefined, knownAttributes: string[]) {
  const fromTrigger = [PHONE_ATTRIBUTE, ...(trigger?.fields ?? []).map((f) => f.attribute).filter((a) => a && IDENTIFIER_PATTERN.test(a))];
  const stored = knownAttributes.filter((a) => !fromTrigger.includes(a));
  return { fromTrigger: [...new Set(fromTrigger)], stored };
}

function MessageNode({
  form,
  templates,
  knownAttributes,
  checks,
  onSync,
  syncing,
  editable,
}: {
  form: Form;
  templates: TemplateView[];
  knownAttributes: string[];
  checks: FieldError[];
  onSync: () => void;
  syncing: boolean;
  editable: boolean;
}) {
  const templateId = useWatch({ control: form.control, name: "templateId" });
  const trigger = useWatch({ control: form.control, name: "triggerConfig" });
  const mappings = useWatch({ control: form.control, name: "messageConfig.variables" });
  const template = templates.find((t) => t.id === templateId);
  const options = attributeOptions(trigger, knownAttributes);
  const allAttributes = [...options.fromTrigger, ...options.stored];
  const alwaysSent = new Set([PHONE_ATTRIBUTE, ...(trigger?.fields ?? []).filter((f) => f.required).map((f) => f.attribute)]);
  const templateCheck = checks.find((c) => c.path === "message.template");
  const variableChecks = new Map(checks.filter((c) => c.path.startsWith("message.variables.")).map((c) => [c.path.slice("message.variables.".length), c]));
  const otherChecks = checks.filter((c) => c.path !== "message.template" && !c.path.startsWith("message.variables."));
  const approved = templates.filter((t) => t.status === "APPROVED");
  const others = templates.filter((t) => t.status !== "APPROVED");

  function chooseTemplate(id: string) {
    const next = templates.find((t) => t.id === id);
    form.setValue("templateId", id === "" ? null : id, { shouldDirty: true });
    form.setValue("messageConfig.variables", alignVariables(next, form.getValues("messageConfig.variables"), allAttributes), { shouldDirty: true });
  }

  return (
    <Card className="gap-4 border-l-4 border-l-[#25d366]" aria-labelledby="message-node-title" role="group">
      <CardHeader>
        <div className="flex items-start gap-3">
          <NodeBadge step={2} icon={<MessageSquareText />} />
          <div>
            <CardTitle id="message-node-title">Message: send a WhatsApp template</CardTitle>
            <CardDescription className="mt-1">
              WhatsApp only delivers business messages from templates it has approved. Pick one and fill each of its blanks from the contact.
            </CardDescription>
          </div>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-1.5">
          <div className="flex items-end justify-between gap-2">
            <label htmlFor="template-picker" className="text-sm font-medium">
              Template
            </label>
            {editable && (
              <Button type="button" variant="link" size="sm" className="h-auto p-0 text-xs" onClick={onSync} disabled={syncing}>
                <RefreshCw className={cn("size-3", syncing && "animate-spin")} aria-hidden /> {syncing ? "Syncing…" : "Sync templates"}
              </Button>
            )}
          </div>
          <NativeSelect
            id="template-picker"
            value={templateId ?? ""}
            onChange={(event) => chooseTemplate(event.target.value)}
            aria-invalid={templateCheck ? true : undefined}
            aria-describedby="template-hint"
          >
            <option value="">Choose an approved template…</option>
            {approved.length > 0 && (
              <optgroup label="Approved">
                {approved.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name} · {t.language} · {t.category.toLowerCase()}
                  </option>
                ))}
              </optgroup>
            )}
            {others.length > 0 && (
              <optgroup label="Not available yet">
                {others.map((t) => (
                  <option key={t.id} value={t.id} disabled={t.id !== templateId}>
                    {t.name} · {t.language} — {templateStatusLabel(t.status)}
                  </option>
                ))}
              </optgroup>
            )}
          </NativeSelect>
          <p id="template-hint" className="text-xs text-muted-foreground">
            {templates.length === 0
              ? "No templates yet. Create them in WhatsApp Manager, then press Sync templates."
              : "Templates waiting for review or rejected by WhatsApp are listed but cannot be chosen."}
          </p>
          {templateCheck && (
            <p role="alert" className="flex items-center gap-1.5 text-xs font-medium text-destructive">
              <AlertCircle className="size-3.5" aria-hidden /> {templateCheck.message}
            </p>
          )}
        </div>

        {template && template.variables.length === 0 && (
          <p className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">This template has no blanks to fill: every recipient gets the same text.</p>
        )}
        {template && template.variables.length > 0 && (
          <div className="grid gap-2">
            <div className="hidden grid-cols-[13rem_minmax(0,1fr)_minmax(0,1fr)] gap-2 px-0.5 text-xs font-medium text-muted-foreground sm:grid">
              <span>Template blank</span>
              <span>Fill with contact attribute</span>
              <span>Fallback if empty (optional)</span>
            </div>
            {template.variables.map((variable, index) => {
              const label = describeVariable(variable);
              const current = form.getValues(`messageConfig.variables.${index}.attribute`);
              const check = variableChecks.get(variable.key);
              const mapping = mappings?.[index];
              const mayBeEmpty = Boolean(mapping?.attribute && !alwaysSent.has(mapping.attribute) && !mapping.fallback?.trim());
              return (
                <div key={variable.key} className="grid gap-1">
                  <div className="grid items-center gap-2 sm:grid-cols-[13rem_minmax(0,1fr)_minmax(0,1fr)]">
                    <div className="min-w-0">
                      <p className="font-mono text-sm">{label}</p>
                      {variable.example && <p className="truncate text-xs text-muted-foreground">e.g. {variable.example}</p>}
                    </div>
                    <NativeSelect
                      aria-label={`Attribute for ${label}`}
                      aria-invalid={check ? true : undefined}
                      {...form.register(`messageConfig.variables.${index}.attribute`, { setValueAs: nullIfEmpty })}
                    >
                      <option value="">None (fallback only)</option>
                      <optgroup label="From the trigger request">
                        {options.fromTrigger.map((a) => (
                          <option key={a} value={a}>
                            {a}
                          </option>
                        ))}
                      </optgroup>
                      {options.stored.length > 0 && (
                        <optgroup label="Saved on the contact">
                          {options.stored.map((a) => (
                            <option key={a} value={a}>
                              {a}
                            </option>
                          ))}
                        </optgroup>
                      )}
                      {current && !allAttributes.includes(current) && <option value={current}>{current} (no longer mapped)</option>}
                    </NativeSelect>
                    <Input
                      aria-label={`Fallback for ${label}`}
                      placeholder={variable.example ? `e.g. ${variable.example}` : "optional"}
                      {...form.register(`messageConfig.variables.${index}.fallback`, { setValueAs: nullIfEmpty })}
                    />
                  </div>
                  {check ? (
                    <p role="alert" className="flex items-center gap-1.5 text-xs font-medium text-destructive">
                      <AlertCircle className="size-3.5" aria-hidden /> {check.message}
                    </p>
                  ) : (
                    mayBeEmpty && (
                      <p className="flex items-center gap-1.5 text-xs text-amber-700">
                        <Info className="size-3.5 shrink-0" aria-hidden />
                        {options.fromTrigger.includes(mapping?.attribute ?? "")
                          ? `${mapping?.attribute} is optional in the request.`
                          : `${mapping?.attribute} comes from the saved contact, which may not have it yet.`}{" "}
                        Add a fallback, or requests without a value are refused.
                      </p>
                    )
                  )}
                </div>
              );
            })}
            <p className="text-xs text-muted-foreground">
              The fallback is used when the request and the contact have no value — for example &quot;there&quot; turns &quot;Hi {"{{1}}"}&quot; into &quot;Hi there&quot;.
            </p>
          </div>
        )}
        <CheckList checks={otherChecks} />
      </CardContent>
    </Card>
  );
}

function PreviewPanel({ form, templates, businessName }: { form: Form; templates: TemplateView[]; businessName: string }) {
  const values = useWatch({ control: form.control }) as FormValues;
  const template = templates.find((t) => t.id === values.templateId);
  const trigger = usableTrigger(values.triggerConfig);
  const payload = samplePayload(trigger);
  const attributes = payloadAttributes(trigger, payload);
  let preview = null;
  if (template) {
    const filled: Record<string, string | undefined> = {};
    for (const mapping of values.messageConfig?.variables ?? []) {
      if (!mapping?.key) continue;
      const fromAttribute = mapping.attribute ? attributeText(attributes[mapping.attribute]) : null;
      const fallback = mapping.fallback && mapping.fallback.trim() !== "" ? mapping.fallback : null;
      filled[mapping.key] = fromAttribute ?? fallback ?? (mapping.attribute ? `[${mapping.attribute}]` : undefined);
    }
    preview = previewTemplate(template, filled);
  }
  return (
    <div className="grid gap-2">
      <div className="flex items-baseline justify-between">
        <h2 className="text-sm font-semibold">Live preview</h2>
        <span className="text-xs text-muted-foreground">to {String(payload[trigger.phoneField])}</span>
      </div>
      <WhatsAppPreview preview={preview} businessName={businessName} />
      <p className="text-xs text-muted-foreground">
        Filled from the example request body. <mark className="rounded bg-amber-100 px-0.5 text-amber-800">Highlighted</mark> parts have no value yet or come from
        a contact attribute.
      </p>
    </div>
  );
}

function ArchiveButton({ disabled, onConfirm }: { disabled: boolean; onConfirm: () => void }) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="ghost" disabled={disabled}>
          <Archive aria-hidden /> Archive
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Archive this campaign?</AlertDialogTitle>
          <AlertDialogDescription>
            Its webhook stops sending messages for good and the campaign can no longer be edited. Messages already sent and their logs are kept.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={onConfirm}>Archive campaign</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** Warns before leaving the page (reload, close, in-app links) with unsaved changes. */
function useUnsavedChangesWarning(active: boolean) {
  useEffect(() => {
    if (!active) return;
    const message = "You have unsaved changes. Leave without saving?";
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    const onClick = (event: MouseEvent) => {
      const anchor = (event.target as HTMLElement | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!anchor || anchor.target === "_blank" || event.defaultPrevented) return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin || url.pathname === window.location.pathname) return;
      if (!window.confirm(message)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [active]);
}
