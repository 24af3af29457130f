"use client";

import { Trash2, Users } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
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
import { PageHeader } from "@/components/ui/page-header";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import { SegmentBuilder } from "./segment-builder";
import type { Segment } from "./types";
import { useApi } from "./use-api";

/** A saved segment: edit its filter (live count), see its contacts, or delete it. */
export function SegmentEditor({ segmentId }: { segmentId: string }) {
  const router = useRouter();
  const { data: segment, problem, reload } = useApi<Segment>(`/api/v1/segments/${segmentId}`);

  async function remove() {
    const result = await requestJson(`/api/v1/segments/${segmentId}`, { method: "DELETE" });
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    toast.success("Segment deleted.");
    router.push("/contacts/segments");
  }

  if (problem) {
    return <PageHeader title="Segment not found" description={problem.status === 404 ? "It may have been deleted, or it belongs to another workspace." : problem.detail} />;
  }
  if (!segment) return <p className="text-sm text-muted-foreground" aria-busy="true">Loading segment…</p>;
  return (
    <>
      <PageHeader
        title={segment.name}
        description="A saved filter over your contacts. Opted-out contacts are never sent bulk messages, whatever the filter says."
        actions={
          <>
            <Button asChild variant="outline">
              <Link href={`/contacts?segmentId=${segment.id}`}><Users aria-hidden />View contacts</Link>
            </Button>
            <AlertDialog>
              <AlertDialogTrigger asChild>
                <Button variant="outline"><Trash2 aria-hidden />Delete</Button>
              </AlertDialogTrigger>
              <AlertDialogContent>
                <AlertDialogHeader>
                  <AlertDialogTitle>Delete {segment.name}?</AlertDialogTitle>
                  <AlertDialogDescription>The saved filter goes; no contact is changed or deleted.</AlertDialogDescription>
                </AlertDialogHeader>
                <AlertDialogFooter>
                  <AlertDialogCancel>Cancel</AlertDialogCancel>
                  <AlertDialogAction onClick={remove}>Delete segment</AlertDialogAction>
                </AlertDialogFooter>
              </AlertDialogContent>
            </AlertDialog>
          </>
        }
      />
      <SegmentBuilder key={segment.updatedAt ?? segment.id} segment={segment} onSaved={reload} />
    </>
  );
}
