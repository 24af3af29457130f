"use client";

import type { ChannelName } from "@/lib/channels/types";
import { zodResolver } from "@hookform/resolvers/zod";
import { CalendarX, Info, Rocket } from "lucide-react";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toaster";
import { builderEditorSchema, formPath, toFormValues, type EditorFormValues } from "@/lib/campaigns/editor";
import type { CampaignEditorValues } from "@/lib/campaigns/schemas";
import type { FieldError } from "@/lib/http/errors";
import { requestJson } from "@/lib/http/client";
import type { TemplateView } from "@/lib/templates/service";
import { Banner, CampaignNameField, useUnsavedChangesWarning, type BuilderForm } from "../builder-parts";
import { MessageNode } from "../message-node";
import { CampaignHeader } from "../campaign-header";
import { CampaignSenderSelect, useSenderSwitch, type SenderOption } from "../campaign-sender-select";
import { AudiencePicker } from "./audience-picker";
import { bulkUpdateBody, initialSettings, settingsChanged, type BulkCampaign, type BulkSettings } from "./bulk-draft";
import { LaunchDialog, type LaunchPlan } from "./launch-dialog";
import { SendPolicyFields } from "../send-policy-fields";
import { describeSendPolicy } from "@/lib/campaigns/send-policy";
import { PreviewStepper } from "./preview-stepper";
import { rateError, ScheduleCard, scheduledInstant } from "./schedule-card";
import { TestSendDialog } from "../test-send-dialog";
import type { AudienceOption, AudienceSelection, LaunchCheck } from "./types";
import { browserTimeZone } from "./zoned-time";

/** The preview steps through every contact, so it can count those with empty blanks even when they are to be left out. */
function previewAudience(audience: AudienceSelection): AudienceSelection {
  return { ...audience, excludeContactsWithEmptyVariables: false };
}

export interface BulkBuilderProps {
  initialCampaign: BulkCampaign;
  templates: TemplateView[];
  knownAttributes: string[];
  lists: AudienceOption[];
  segments: AudienceOption[];
  sender: { provider: ChannelName; name: string; throughputPerSecond: number };
  /** The workspace's senders, for the sender select. */
  senders: SenderOption[];
}

export function BulkBuilder({ initialCampaign, templates: initialTemplates, knownAttributes, lists, segments, sender, senders }: BulkBuilderProps) {
  const router = useRouter();
  const [campaign, setCampaign] = useState(initialCampaign);
  const [templates, setTemplates] = useState(initialTemplates);
  const [saved, setSaved] = useState(() => initialSettings(initialCampaign));
  const [settings, setSettings] = useState(saved);
  const [checks, setChecks] = useState<FieldError[]>([]);
  // The preview's per-blank counts: one source for its "every contact has a value" and the blanks' warnings.
  const [emptyCounts, setEmptyCounts] = useState<Record<string, number>>();
  const [busy, setBusy] = useState<null | "save" | "launch" | "sync">(null);
  const launchButton = useRef<HTMLButtonElement>(null);
  const [launch, setLaunch] = useState<{ open: boolean; check: LaunchCheck | null; plan: LaunchPlan }>({ open: false, check: null, plan: { kind: "now" } });

  const form: BuilderForm = useForm<EditorFormValues, unknown, CampaignEditorValues>({
    resolver: zodResolver(builderEditorSchema),
    defaultValues: toFormValues(initialCampaign, initialTemplates, knownAttributes),
    mode: "onChange",
  });
  const templateId = useWatch({ control: form.control, name: "templateId" });
  const variables = useWatch({ control: form.control, name: "messageConfig.variables" });
  const dirty = form.formState.isDirty || settingsChanged(saved, settings);
  const editable = campaign.status === "draft" || campaign.status === "scheduled";
  useUnsavedChangesWarning(dirty && editable);

  const update = (patch: Partial<BulkSettings>) => setSettings((current) => ({ ...current, ...patch }));
  const policyErrors = Object.fromEntries(checks.filter((c) => c.path.startsWith("sendPolicy")).map((c) => [c.path, c.message]));

  /** Saves when there are changes; false when the form is invalid or the server refused. */
  async function save(): Promise<boolean> {
    if (!dirty) return true;
    const problem = rateError(settings.rate, sender.throughputPerSecond);
    if (problem) {
      toast.error(problem);
      return false;
    }
    let ok = false;
    await form.handleSubmit(
      async (values) => {
        const result = await requestJson<BulkCampaign>(`/api/v1/campaigns/${campaign.id}`, { method: "PATCH", body: bulkUpdateBody(values, settings, campaign.version) });
        if (!result.ok) {
          for (const error of result.problem.errors ?? []) form.setError(formPath(error.path) as never, { type: "server", message: error.message });
          setChecks(result.problem.errors ?? []);
          toast.error(result.problem.detail);
          return;
        }
        setCampaign(result.data);
        form.reset(toFormValues(result.data, templates, knownAttributes));
        setSaved(settings);
        ok = true;
      },
      () => toast.error("Some fields need attention before saving."),
    )();
    return ok;
  }

  async function onSave() {
    setBusy("save");
    try {
      if (await save()) toast.success("Changes saved");
    } finally {
      setBusy(null);
    }
  }

  async function openLaunch() {
    let plan: LaunchPlan = { kind: "now" };
    if (settings.schedule.mode === "later") {
      const when = scheduledInstant(settings.schedule);
      if ("error" in when) {
        toast.error(when.error);
        document.getElementById("schedule-local")?.focus();
        return;
      }
      plan = { kind: "later", scheduledAt: settings.schedule.local, startsAt: when.instant.toISOString(), timeZone: settings.schedule.timeZone };
    }
    setBusy("launch");
    try {
      if (!(await save())) return;
      setLaunch({ open: true, check: null, plan });
      const result = await requestJson<LaunchCheck>(`/api/v1/campaigns/${campaign.id}/launch-check`);
      if (!result.ok) {
        setLaunch((l) => ({ ...l, open: false }));
        toast.error(result.problem.detail);
        return;
      }
      setLaunch((l) => ({ ...l, check: result.data }));
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
      if (!result.ok) return void toast.error(result.problem.detail);
      setTemplates(result.data.data);
      toast.success(`Templates synced: ${result.data.total} found`);
    } finally {
      setBusy(null);
    }
  }

  // No version check: the save just before may have moved the version past this render's.
  const sendersSwitch = useSenderSwitch<BulkCampaign>({ campaignId: campaign.id, save, version: () => undefined, onSaved: setCampaign, onTemplates: setTemplates });

  const later = settings.schedule.mode === "later";
  return (
    <form onSubmit={(event) => event.preventDefault()} noValidate className="grid gap-6">
      <CampaignHeader
        name={campaign.name}
        status={campaign.status}
        unsaved={dirty && editable}
        description="Bulk campaign · one WhatsApp message to everyone in the audience, once."
      >
        {editable && (
          <>
            <Button type="button" variant="outline" onClick={onSave} disabled={!dirty || busy !== null}>
              {busy === "save" ? "Saving…" : campaign.status === "draft" ? "Save draft" : "Save changes"}
            </Button>
            <TestSendDialog campaignId={campaign.id} beforeSend={save} disabled={busy !== null || !templateId} />
            <Button ref={launchButton} type="button" onClick={openLaunch} disabled={busy !== null}>
              <Rocket aria-hidden /> {later ? "Schedule…" : "Launch…"}
            </Button>
          </>
        )}
      </CampaignHeader>

      <CampaignSenderSelect senders={senders} value={campaign.senderId} disabled={!editable || busy !== null} busy={sendersSwitch.switching} onChange={(id) => void sendersSwitch.switchTo(id)} />
      {sender.provider === "sandbox" && (
        <Banner tone="info" icon={<Info aria-hidden />}>
          <strong className="font-medium">Sandbox mode.</strong> Messages are simulated — nothing reaches a real phone.
        </Banner>
      )}

      {campaign.status === "draft" && campaign.bulk?.scheduleMissed && (
        <Banner tone="error" icon={<CalendarX aria-hidden />}>
          <strong className="font-medium">This campaign did not start at its scheduled time.</strong> Sendstream was not running then, or a launch check failed. Nothing
          was sent: schedule it again or launch it now.
        </Banner>
      )}

      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_360px]">
        <fieldset disabled={!editable} className="grid min-w-0 gap-4">
          <legend className="sr-only">Campaign configuration</legend>
          <CampaignNameField registration={form.register("name")} error={form.formState.errors.name?.message} />
          <AudiencePicker
            lists={lists}
            segments={segments}
            value={settings.audience}
            onChange={(audience) => update({ audience: { ...settings.audience, ...audience } })}
            error={checks.find((c) => c.path.startsWith("audience"))?.message}
          />
          <MessageNode
            form={form}
            templates={templates}
            knownAttributes={knownAttributes}
            checks={checks.filter((c) => c.path.startsWith("message"))}
            onSync={syncTemplates}
            syncing={busy === "sync"}
            editable={editable}
            attributesFrom="contact"
            emptyCounts={emptyCounts}
          />
          <ScheduleCard
            schedule={settings.schedule}
            onScheduleChange={(schedule) => update({ schedule: schedule.timeZone ? schedule : { ...schedule, timeZone: browserTimeZone() } })}
            rate={settings.rate}
            onRateChange={(rate) => update({ rate })}
            throughput={sender.throughputPerSecond}
          />
          <SendPolicyFields value={settings.sendPolicy} onChange={(sendPolicy) => update({ sendPolicy })} disabled={!editable} errors={policyErrors} />
        </fieldset>
        <aside className="min-w-0 xl:sticky xl:top-6 xl:self-start">
          <PreviewStepper
            request={{ audience: previewAudience(settings.audience), templateId: templateId ?? null, messageConfig: { variables: (variables ?? []).map((v) => ({ key: v.key, attribute: v.attribute ?? null, fallback: v.fallback ?? null })) } }}
            businessName={sender.name}
            excludeEmpty={settings.audience.excludeContactsWithEmptyVariables ?? false}
            onExcludeEmptyChange={(exclude) => update({ audience: { ...settings.audience, excludeContactsWithEmptyVariables: exclude } })}
            onCounts={setEmptyCounts}
            disabled={!editable}
          />
        </aside>
      </div>

      <LaunchDialog
        open={launch.open}
        onOpenChange={(open) => setLaunch((l) => ({ ...l, open }))}
        campaignId={campaign.id}
        version={campaign.version}
        check={launch.check}
        plan={launch.plan}
        sandbox={sender.provider === "sandbox"}
        policy={describeSendPolicy(saved.sendPolicy)}
        returnFocusTo={launchButton}
        onLaunched={() => {
          toast.success(launch.plan.kind === "later" ? "Campaign scheduled" : "Campaign launched");
          router.push(`/campaigns/${campaign.id}`);
          router.refresh();
        }}
      />
    </form>
  );
}
