"use client";

import { Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toaster";
import type { SavedReplyView } from "@/lib/conversations/saved-replies";
import { requestJson } from "@/lib/http/client";

const byTitle = (a: SavedReplyView, b: SavedReplyView) => a.title.localeCompare(b.title);

/** The workspace's saved replies: list, add, edit, delete. */
export function SavedRepliesManager({ initial }: { initial: SavedReplyView[] }) {
  const [replies, setReplies] = useState(initial);
  const [editing, setEditing] = useState<SavedReplyView | null>(null);
  const [title, setTitle] = useState("");
  const [body, setBody] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const edit = (reply: SavedReplyView | null) => {
    setEditing(reply);
    setTitle(reply?.title ?? "");
    setBody(reply?.body ?? "");
    setErrors({});
  };

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    const result = editing
      ? await requestJson<SavedReplyView>(`/api/saved-replies/${editing.id}`, { method: "PUT", body: { title, body } })
      : await requestJson<SavedReplyView>("/api/saved-replies", { method: "POST", body: { title, body } });
    setSaving(false);
    if (!result.ok) {
      const fields = Object.fromEntries((result.problem.errors ?? []).map((error) => [error.path, error.message]));
      setErrors(result.status === 409 ? { title: result.problem.detail } : fields);
      return;
    }
    setReplies((current) => [...current.filter((reply) => reply.id !== result.data.id), result.data].sort(byTitle));
    toast.success(editing ? "Saved reply changed" : "Saved reply added");
    edit(null);
  }

  async function remove(reply: SavedReplyView) {
    const result = await requestJson(`/api/saved-replies/${reply.id}`, { method: "DELETE" });
    if (!result.ok) return toast.error(result.problem.detail);
    setReplies((current) => current.filter((candidate) => candidate.id !== reply.id));
    if (editing?.id === reply.id) edit(null);
  }

  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Saved replies</CardTitle>
          <CardDescription>Answers your team keeps typing. Insert one from a conversation&apos;s composer and edit it before sending.</CardDescription>
        </CardHeader>
        <CardContent>
          {replies.length === 0 ? (
            <EmptyState title="No saved replies yet" description="Add your shipping times, return policy or opening hours." />
          ) : (
            <ul aria-label="Saved replies" className="divide-y rounded-lg border">
              {replies.map((reply) => (
                <li key={reply.id} className="flex items-start gap-3 p-3">
                  <div className="grid min-w-0 flex-1 gap-1">
                    <p className="text-sm font-medium">{reply.title}</p>
                    <p className="line-clamp-3 text-sm break-words whitespace-pre-wrap text-muted-foreground">{reply.body}</p>
                  </div>
                  <Button type="button" variant="ghost" size="icon" onClick={() => edit(reply)} aria-label={`Edit ${reply.title}`}>
                    <Pencil aria-hidden />
                  </Button>
                  <Button type="button" variant="ghost" size="icon" onClick={() => remove(reply)} aria-label={`Delete ${reply.title}`}>
                    <Trash2 aria-hidden />
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{editing ? `Edit “${editing.title}”` : "Add a saved reply"}</CardTitle>
        </CardHeader>
        <CardContent>
          <form onSubmit={save} noValidate className="grid gap-4">
            <FormField id="saved-reply-title" label="Name" error={errors.title}>
              <Input id="saved-reply-title" value={title} maxLength={80} onChange={(event) => setTitle(event.target.value)} aria-invalid={errors.title ? true : undefined} />
            </FormField>
            <FormField id="saved-reply-body" label="Reply" error={errors.body} hint="{{first_name}}, {{name}} and any contact attribute such as {{order_number}} are filled in from the contact.">
              <Textarea id="saved-reply-body" value={body} rows={4} maxLength={4096} onChange={(event) => setBody(event.target.value)} aria-invalid={errors.body ? true : undefined} />
            </FormField>
            <div className="flex gap-2">
              <Button type="submit" disabled={saving}>
                {saving ? "Saving…" : editing ? "Save changes" : "Add saved reply"}
              </Button>
              {editing && (
                <Button type="button" variant="outline" onClick={() => edit(null)}>
                  Cancel
                </Button>
              )}
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
