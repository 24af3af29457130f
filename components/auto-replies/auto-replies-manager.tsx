"use client";

import { Trash2 } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import type { AutoReplyView } from "@/lib/inbound/auto-replies";
import { AutoReplyForm, type AutoReplySender } from "./auto-reply-form";

/** The workspace's keyword auto-replies: the list (switch on/off, delete) and the form to add one. */
export function AutoRepliesManager({ initial, senders, canManage }: { initial: AutoReplyView[]; senders: AutoReplySender[]; canManage: boolean }) {
  const [rules, setRules] = useState(initial);
  const senderName = (id: string) => senders.find((sender) => sender.id === id)?.name ?? "A replaced number";

  async function toggle(rule: AutoReplyView) {
    const reply = rule.reply.type === "text" ? rule.reply : { type: "template", templateId: rule.reply.templateId, variables: rule.reply.variables };
    const result = await requestJson<AutoReplyView>(`/api/auto-replies/${rule.id}`, { method: "PUT", body: { senderId: rule.senderId, keyword: rule.keyword, reply, enabled: !rule.enabled } });
    if (!result.ok) return toast.error(result.problem.detail);
    setRules((current) => current.map((candidate) => (candidate.id === rule.id ? result.data : candidate)));
  }

  async function remove(rule: AutoReplyView) {
    const result = await requestJson(`/api/auto-replies/${rule.id}`, { method: "DELETE" });
    if (!result.ok) return toast.error(result.problem.detail);
    setRules((current) => current.filter((candidate) => candidate.id !== rule.id));
    toast.success(`${rule.keyword} is no longer answered automatically`);
  }

  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Auto-replies</CardTitle>
          <CardDescription>
            A contact who sends exactly a keyword (or taps a quick-reply button with that payload) gets the answer at once. STOP, START and your opt-out
            keywords always opt out or in first and are never answered automatically.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {rules.length === 0 ? (
            <EmptyState title="No auto-replies yet" description="Answer common questions such as HOURS or ADDRESS without anyone on duty." />
          ) : (
            <ul aria-label="Auto-replies" className="divide-y rounded-lg border">
              {rules.map((rule) => (
                <li key={rule.id} className="flex flex-wrap items-start gap-3 p-3 sm:flex-nowrap">
                  <div className="grid min-w-0 flex-1 gap-1">
                    <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                      <span className="font-mono">{rule.keyword}</span>
                      {senders.length > 1 && <span className="text-xs font-normal text-muted-foreground">on {senderName(rule.senderId)}</span>}
                      {!rule.enabled && <Badge variant="secondary">Off</Badge>}
                    </p>
                    <p className="text-sm break-words text-muted-foreground">
                      {rule.reply.type === "text" ? rule.reply.text : `Template ${rule.reply.templateName ?? rule.reply.templateId}`}
                    </p>
                  </div>
                  {canManage && (
                    <div className="flex gap-1">
                      <Button type="button" variant="outline" size="sm" onClick={() => toggle(rule)} aria-label={`${rule.enabled ? "Switch off" : "Switch on"} ${rule.keyword}`}>
                        {rule.enabled ? "Switch off" : "Switch on"}
                      </Button>
                      <Button type="button" variant="ghost" size="icon" onClick={() => remove(rule)} aria-label={`Delete ${rule.keyword}`}>
                        <Trash2 aria-hidden />
                      </Button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      {canManage && (
        <Card>
          <CardHeader>
            <CardTitle>Add an auto-reply</CardTitle>
          </CardHeader>
          <CardContent>
            <AutoReplyForm senders={senders} onCreated={(rule) => setRules((current) => [...current, rule].sort((a, b) => a.keyword.localeCompare(b.keyword)))} />
          </CardContent>
        </Card>
      )}
    </div>
  );
}
