import { AlertCircle, Archive, Info } from "lucide-react";
import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { DeploymentDetails } from "@/lib/campaigns/deployment";
import type { CampaignStatus } from "@/lib/campaigns/schemas";
import type { FieldError } from "@/lib/http/errors";
import { Banner } from "./builder-parts";
import { SendingLimits, WebhookUrls } from "./deployment-details";
import { SourceTestCommand } from "./sources/source-test-command";

/** Above the trigger builder: sandbox mode, and a sender the deploy refused. */
export function SenderNotices({ sandbox, senderError }: { sandbox: boolean; senderError: FieldError | undefined }) {
  return (
    <>
    {sandbox && (
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
    </>
  );
}

/** An archived campaign's notice, or a live one's webhook URLs and test command. */
export function DeploymentNotices({ campaignId, status, deployment }: { campaignId: string; status: CampaignStatus; deployment: DeploymentDetails | null }) {
  return (
    <>
    {status === "archived" && (
      <Banner tone="muted" icon={<Archive aria-hidden />}>
        This campaign is archived. Its webhook no longer sends messages; its logs stay available. Unarchive it to edit and deploy it again as a draft.
      </Banner>
    )}

    {deployment && (status === "active" || status === "paused") && (
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Connect your system</CardTitle>
          <CardDescription>
            Send a POST request with a JSON body to either URL. The URLs stay the same when you pause and resume.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <WebhookUrls urls={deployment.webhookUrls} />
          <SourceTestCommand campaignId={campaignId} deployment={deployment} />
          <SendingLimits limits={deployment.limits} />
        </CardContent>
      </Card>
    )}

    </>
  );
}
