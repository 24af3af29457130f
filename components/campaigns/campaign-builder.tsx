"use client";

import type { ChannelName } from "@/lib/channels/types";
import { zodResolver } from "@hookform/resolvers/zod";
import { ArchiveRestore, FileText, Inbox, MessageSquareReply, Play, Rocket } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toaster";
import {
  builderEditorSchema,
  campaignUpdateBody,
  editedConfig,
  editsDraftRevision,
  formPath,
  splitCampaignResponse,
  toFormValues,
  usableTrigger,
  type CampaignResponse,
  type EditorFormValues,
} from "@/lib/campaigns/editor";
import { samplePayload } from "@/lib/campaigns/sample";
import { describeSendPolicy } from "@/lib/campaigns/send-policy";
import type { CampaignEditorValues } from "@/lib/campaigns/schemas";
import type { DeploymentDetails } from "@/lib/campaigns/deployment";
import type { CampaignView } from "@/lib/campaigns/service";
import type { FieldError } from "@/lib/http/errors";
import { requestJson } from "@/lib/http/client";
import type { TemplateView } from "@/lib/templates/service";
import { ArchiveButton, CampaignNameField, Connector, LiveDialog, useUnsavedChangesWarning, type BuilderForm } from "./builder-parts";
import { ACTION_DONE, PauseButton, RevisionBanner, type Action } from "./live-edit";
import { CampaignSenderSelect, useSenderSwitch, type SenderOption } from "./campaign-sender-select";
import { MessageNode } from "./message-node";
import { PreviewPanel } from "./preview-panel";
import { CampaignHeader } from "./campaign-header";
import { BuilderSendPolicy } from "./send-policy-fields";
import { TestSendDialog } from "./test-send-dialog";
import { TriggerNode } from "./trigger-node";
import { SourceCard } from "./sources/source-card";
import { SourceTestCommand } from "./sources/source-test-command";
import { DeploymentNotices, SenderNotices } from "./builder-notices";
import { JourneyPreview } from "./journey/journey-preview";
import { JourneySection } from "./journey/journey-section";
import { JourneyStart } from "./journey/journey-start";
import { JourneyTestDialog } from "./journey/journey-test-dialog";

export interface CampaignBuilderProps {
  initialCampaign: CampaignView;
  initialDeployment: DeploymentDetails | null;
  templates: TemplateView[];
  knownAttributes: string[];
  sender: { provider: ChannelName; name: string };
  /** The workspace's senders, for the sender select. */
  senders: SenderOption[];
}

export function CampaignBuilder({ initialCampaign, initialDeployment, templates: initialTemplates, knownAttributes, sender, senders }: CampaignBuilderProps) {
  const router = useRouter();
  const [campaign, setCampaign] = useState(initialCampaign);
  const [deployment, setDeployment] = useState(initialDeployment);
  const [templates, setTemplates] = useState(initialTemplates);
  const [checks, setChecks] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState<null | "save" | "sync" | Action>(null);
  const [liveDialog, setLiveDialog] = useState(false);
  // The API's refusals of a save that name the journey, shown on its nodes; the preset's stand-in templates.
  const [journeyChecks, setJourneyChecks] = useState<FieldError[]>([]);
  const [placeholders, setPlaceholders] = useState<ReadonlySet<string>>(new Set());
  // The version the last response carried (state lags behind within one click's save-then-act).
  const versionRef = useRef(initialCampaign.version);

  const form: BuilderForm = useForm<EditorFormValues, unknown, CampaignEditorValues>({
    resolver: zodResolver(builderEditorSchema),
    defaultValues: toFormValues(editedConfig(initialCampaign), initialTemplates, knownAttributes),
    mode: "onChange",
  });
  const { isDirty } = form.formState;
  const journey = useWatch({ control: form.control, name: "journey" });
  // An active campaign is edited too: saving writes its draft revision, which goes live on publish.
  const editable = campaign.status === "draft" || campaign.status === "paused" || campaign.status === "active";
  const revisionMode = editsDraftRevision(campaign);

  useUnsavedChangesWarning(isDirty && editable);

  function applyResponse(response: CampaignResponse) {
    const { campaign: next, deployment: nextDeployment } = splitCampaignResponse(response);
    versionRef.current = next.version;
    setCampaign(next);
    setDeployment(nextDeployment);
    form.reset(toFormValues(editedConfig(next), templates, knownAttributes));
  }

  function showServerErrors(errors: FieldError[] | undefined) {
    setJourneyChecks((errors ?? []).filter((error) => error.path.startsWith("journey")));
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
        const result = await requestJson<CampaignResponse>(`/api/v1/campaigns/${campaign.id}`, {
          method: "PATCH",
          body: campaignUpdateBody(values as Parameters<typeof campaignUpdateBody>[0], versionRef.current),
        });
        if (!result.ok) {
          showServerErrors(result.problem.errors);
          toast.error(result.problem.detail);
          return;
        }
        setJourneyChecks([]);
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
      if (await save()) toast.success(revisionMode ? "Draft saved — the webhook keeps sending the live version until you publish." : "Changes saved");
    } finally {
      setBusy(null);
    }
  }

  async function runAction(action: Action) {
    setBusy(action);
    try {
      if ((action === "deploy" || action === "resume" || action === "publish") && !(await save())) return;
      const result = await requestJson<CampaignResponse>(`/api/v1/campaigns/${campaign.id}/${action}`, {
        method: "POST",
        // Publish and discard act on exactly the revision on screen; a change made elsewhere meanwhile is a conflict.
        body: action === "publish" || action === "discard" ? { version: versionRef.current } : {},
      });
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
      else toast.success(ACTION_DONE[action]);
      router.refresh();
    } finally {
      setBusy(null);
    }
  }

  async function syncTemplates() {
    setBusy("sync");
    try {
      const result = await requestJson<{ data: TemplateView[]; total: number }>(`/api/templates/sync?senderId=${encodeURIComponent(campaign.senderId ?? "")}`, {
        method: "POST",
        body: {},
      });
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

  const sendersSwitch = useSenderSwitch<CampaignResponse>({ campaignId: campaign.id, save, version: () => versionRef.current, onSaved: applyResponse, onTemplates: setTemplates });
  const senderError = checks.find((c) => c.path === "sender");
  /** The example body the trigger node shows, for a test send from the builder or the live dialog. */
  const exampleRequest = () => {
    const trigger = usableTrigger(form.getValues("triggerConfig"));
    const example = samplePayload(trigger);
    // A captured batch: a test sends one item.
    const item = Array.isArray(example) ? example.find((entry) => typeof entry === "object" && entry !== null && !Array.isArray(entry)) ?? {} : example;
    return { example: item as Record<string, unknown>, phoneField: trigger.phoneField };
  };

  return (
    <form onSubmit={(event) => event.preventDefault()} noValidate className="grid gap-6">
      <CampaignHeader
        name={campaign.name}
        status={campaign.status}
        unsaved={isDirty && editable}
        description="Trigger campaign · when your system calls the webhook, one WhatsApp message goes to the phone number in the request."
      >
        <Button variant="ghost" asChild>
          <Link href={`/campaigns/${campaign.id}/requests`}>
            <Inbox aria-hidden /> Requests
          </Link>
        </Button>
        {campaign.status !== "draft" && (
          <Button variant="ghost" asChild>
            <Link href={`/campaigns/${campaign.id}/logs`}>
              <FileText aria-hidden /> View logs
            </Link>
          </Button>
        )}
        {campaign.status !== "draft" && (
          <Button variant="ghost" asChild>
            <Link href={`/campaigns/${campaign.id}/logs?direction=inbound`}>
              <MessageSquareReply aria-hidden /> Replies
            </Link>
          </Button>
        )}
        {campaign.status !== "archived" && <ArchiveButton disabled={busy !== null} onConfirm={() => runAction("archive")} />}
        {campaign.status === "archived" && (
          <Button onClick={() => runAction("unarchive")} disabled={busy !== null}>
            <ArchiveRestore aria-hidden /> {busy === "unarchive" ? "Unarchiving…" : "Unarchive"}
          </Button>
        )}
        {editable && journey && <JourneyTestDialog campaignId={campaign.id} beforeStart={save} disabled={busy !== null} example={() => exampleRequest().example} />}
        {editable && !journey && <TestSendDialog campaignId={campaign.id} beforeSend={save} disabled={busy !== null} trigger={exampleRequest} />}
        {editable && (
          <Button variant="outline" onClick={onSave} disabled={!isDirty || busy !== null}>
            {busy === "save" ? "Saving…" : campaign.status === "draft" || revisionMode ? "Save draft" : "Save changes"}
          </Button>
        )}
        {campaign.status === "draft" && (
          <Button onClick={() => runAction("deploy")} disabled={busy !== null}>
            <Rocket aria-hidden /> {busy === "deploy" ? "Deploying…" : "Deploy"}
          </Button>
        )}
        {campaign.status === "active" && <PauseButton disabled={busy !== null} busy={busy === "pause"} onConfirm={() => runAction("pause")} />}
        {campaign.status === "paused" && (
          <Button onClick={() => runAction("resume")} disabled={busy !== null}>
            <Play aria-hidden /> {busy === "resume" ? "Resuming…" : "Resume"}
          </Button>
        )}
      </CampaignHeader>

      <CampaignSenderSelect senders={senders} value={campaign.senderId} disabled={!editable || busy !== null} busy={sendersSwitch.switching} onChange={(id) => void sendersSwitch.switchTo(id)} />
      <SenderNotices sandbox={sender.provider === "sandbox"} senderError={senderError} />
      {revisionMode && (
        <RevisionBanner
          campaign={campaign}
          templates={templates}
          dirty={isDirty}
          busy={busy}
          onPublish={() => runAction("publish")}
          onDiscard={() => runAction("discard")}
        />
      )}
      <DeploymentNotices campaignId={campaign.id} status={campaign.status} deployment={deployment} />

      <div id="builder-flow" className="grid scroll-mt-6 gap-6 xl:grid-cols-[minmax(0,1fr)_360px]">
        <fieldset disabled={!editable} className="grid min-w-0 gap-0">
          <legend className="sr-only">Campaign configuration</legend>
          {editable && (
            <CampaignNameField className="mb-4" registration={form.register("name")} error={form.formState.errors.name?.message} />
          )}
          <SourceCard form={form} campaignId={campaign.id} editable={editable} />
          <TriggerNode form={form} checks={checks.filter((c) => c.path.startsWith("trigger"))} knownAttributes={knownAttributes} />
          <Connector label={journey ? "then" : "then send"} />
          {journey ? (
            <JourneySection
              form={form}
              journey={journey}
              campaignId={campaign.id}
              deployed={campaign.status !== "draft"}
              templates={templates}
              knownAttributes={knownAttributes}
              senders={senders}
              checks={[...checks, ...journeyChecks]}
              placeholders={placeholders}
              onPlaceholdersChange={setPlaceholders}
              editable={editable}
            />
          ) : (
            <>
              <MessageNode
                form={form}
                templates={templates}
                knownAttributes={knownAttributes}
                checks={checks.filter((c) => c.path.startsWith("message"))}
                onSync={syncTemplates}
                syncing={busy === "sync"}
                editable={editable}
              />
              {editable && <JourneyStart form={form} templates={templates} onPlaceholders={setPlaceholders} />}
            </>
          )}
          <div className="mt-6">
            <BuilderSendPolicy form={form} disabled={!editable} />
          </div>
        </fieldset>
        <aside className="xl:sticky xl:top-6 xl:self-start">
          {journey ? <JourneyPreview form={form} journey={journey} templates={templates} businessName={sender.name} /> : <PreviewPanel form={form} templates={templates} businessName={sender.name} />}
        </aside>
      </div>

      <LiveDialog
        open={liveDialog}
        onOpenChange={setLiveDialog}
        deployment={deployment}
        command={deployment && <SourceTestCommand campaignId={campaign.id} deployment={deployment} />}
        testSend={<TestSendDialog campaignId={campaign.id} beforeSend={save} trigger={exampleRequest} triggerLabel="Send a test message" />}
        policy={describeSendPolicy(campaign.sendPolicy)}
      />
    </form>
  );
}
