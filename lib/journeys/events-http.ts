// `POST /api/v1/events`: an event for a contact (by phone or id) starts the journeys that enter on it
// and ends the runs that exit on it. An unknown contact's event is accepted and recorded (202), with
// no run.
import { getDb } from "@/db";
import { readStrictBody } from "@/lib/http/request";
import { runJobsSoon } from "@/lib/jobs/soon";
import { json, onlyMethods, withWorkspace } from "@/lib/routing/route";
import { ingestEvent } from "./events";
import { JOURNEY_STEPS_JOB } from "./jobs";
import { journeyEventSchema } from "./schemas";

export interface PublicJourneyEvent {
  id: string;
  object: "event";
  name: string;
  /** Null when no contact of the workspace has this phone number or id. */
  contactId: string | null;
  runsStarted: number;
  runsEnded: number;
  createdAt: string;
}

export const eventRoutes = {
  ...onlyMethods(["POST"]),
  POST: withWorkspace(async ({ request, workspaceId }) => {
    const input = await readStrictBody(request, journeyEventSchema);
    const event = await ingestEvent(await getDb(), {
      workspaceId,
      name: input.name,
      ...(input.phone !== undefined ? { phone: input.phone } : {}),
      ...(input.contactId !== undefined ? { contactId: input.contactId } : {}),
      properties: input.properties,
    });
    const body: PublicJourneyEvent = {
      id: event.id,
      object: "event",
      name: event.name,
      contactId: event.contactId,
      runsStarted: event.runsStarted,
      runsEnded: event.runsEnded,
      createdAt: event.createdAt,
    };
    // Runs it started or woke take their next step right after the response.
    if (event.runsStarted > 0 || event.contactId !== null) runJobsSoon([JOURNEY_STEPS_JOB]);
    return json(body, { status: 202 });
  }),
};
