// What a campaign kind (trigger, bulk, …) provides to the kind-agnostic campaign code: its checks,
// its lifecycle (which actions apply in which status, with their side effects), its edit rules and
// its view model. lib/campaigns dispatches on the registered kind and never imports a kind's
// folder; the kinds import lib/campaigns. They are registered once per process by the composition
// root (lib/engine/campaign-kinds.ts), which every entry point (server start-up, worker, tests)
// imports before it serves anything.
import type { z } from "zod";
import type { Executor } from "@/db";
import type { campaigns } from "@/db/schema";
import type { ApiError, FieldError } from "@/lib/http/errors";
import type { PublicMessage } from "@/lib/messaging/public-message";
import type { LifecycleOptions } from "./lifecycle";
import type { CampaignKind, CampaignStatus, createCampaignSchema, updateCampaignSchema } from "./schemas";
import type { CampaignRow, CampaignView } from "./service";

/** Every action of `POST /api/v1/campaigns/{id}/<action>`; each kind says which apply to it. */
export const CAMPAIGN_ACTIONS = ["deploy", "pause", "resume", "archive", "unarchive", "publish", "discard"] as const;
export type CampaignAction = (typeof CAMPAIGN_ACTIONS)[number];

/**
 * Members of a campaign's view (API and pages) that belong to one kind. Each kind adds its own by
 * declaration merging (`declare module "@/lib/campaigns/kinds"`) and fills them in `view.members`;
 * a campaign of another kind shows them as `view.absent` (null).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CampaignKindMembers {}

export type CampaignColumns = Partial<typeof campaigns.$inferInsert>;
export type CreateCampaignValues = z.output<typeof createCampaignSchema>;
export type UpdateCampaignValues = z.output<typeof updateCampaignSchema>;
export type UpdateMember = Exclude<keyof UpdateCampaignValues, "version">;
export type LifecycleHandler = (db: Executor, workspaceId: string, id: string, options: LifecycleOptions) => Promise<CampaignView>;

/** A test send's body (`POST /api/v1/campaigns/{id}/test-send`, schema in lib/bulk/schemas.ts). */
export interface TestSendInput {
  /** E.164 by the time a kind sees them (sendTestMessages reads what was typed). */
  phones: string[];
  /** For numbers typed without a country code (ISO 3166 alpha-2). */
  country?: string;
  request?: Record<string, unknown>;
}

export interface CampaignKindDefinition {
  readonly name: CampaignKind;

  /** Readiness to go live (deploy, launch) of the campaign, or of a configuration of it (a draft revision written over the row); empty when ready. */
  checks(db: Executor, workspaceId: string, campaign: CampaignRow): Promise<FieldError[]>;

  readonly lifecycle: {
    /** Plain status changes (pause, resume, archive, cancel): which statuses each target can be reached from. */
    transitions: Partial<Record<CampaignStatus, readonly CampaignStatus[]>>;
    /** Actions with rules and side effects of their own; pause, archive, unarchive, publish and discard are the same for every kind. */
    actions: Partial<Record<CampaignAction, LifecycleHandler>>;
    /** The problem answered for an action this kind does not have. */
    unsupported(action: CampaignAction): ApiError;
    /** Called in the publish transaction once the revision is live (a trigger campaign records its journey's version). */
    published?(db: Executor, row: CampaignRow): Promise<void>;
    /** Where unarchiving brings a campaign and the columns it resets (pending edits of a draft revision are applied by the skeleton). */
    unarchive(row: CampaignRow): { to: CampaignStatus; columns: CampaignColumns };
  };

  readonly edits: {
    /** Statuses in which `PATCH` changes the campaign in place. */
    statuses: readonly CampaignStatus[];
    /** The 409 `campaign_not_editable` detail outside those statuses. */
    notEditable(row: CampaignRow): string;
    /** `PATCH` members only this kind takes (a campaign of another kind answers 422 `not_for_kind`). */
    members: readonly UpdateMember[];
    /** Whether edits go into the draft revision (revision.ts) instead of the row. */
    intoRevision(row: CampaignRow): boolean;
    /** References of the changes exist in the workspace and fit the sender (422 otherwise). */
    check(db: Executor, workspaceId: string, changes: UpdateCampaignValues): Promise<void>;
  };

  readonly create: {
    check(db: Executor, workspaceId: string, input: CreateCampaignValues): Promise<void>;
    /** Columns of the new row beyond the name, kind, status and the default mapping. */
    columns(input: CreateCampaignValues): CampaignColumns;
  };

  readonly view: {
    members(row: CampaignRow): Partial<CampaignKindMembers>;
    absent: Partial<CampaignKindMembers>;
    /** Whether the campaign has deployment details (webhook URLs, limits, the curl example) to show. */
    deployed(campaign: Pick<CampaignView, "status">): boolean;
    /** The campaign page's activity chart shows the funnel (else the kind's page shows its own progress). */
    activityFunnel: boolean;
    /** Edited on its own page (`/campaigns/{id}/edit`) while editable, rather than on the campaign page. */
    editPage: boolean;
  };

  /** Queues test messages of the campaign to the given phones; the caller dispatches them. */
  sendTest(db: Executor, workspaceId: string, id: string, input: TestSendInput): Promise<PublicMessage[]>;

  /** The problem answered when an operation of this kind is asked of a campaign of another kind. */
  otherKind(row: CampaignRow): ApiError;
}

type Registry = Map<CampaignKind, CampaignKindDefinition>;
// On globalThis: Next.js loads server start-up and the routes as separate module graphs of one
// process, and the kinds are registered once, at start-up. A route thus runs the start-up graph's
// kind code: what it shares across graphs is on globalThis too, and its errors are ApiErrors by
// brand (lib/http/errors.ts). A kind's code changed under `next dev` applies after a restart.
const REGISTRY = Symbol.for("sendstream.campaign-kinds");

function registry(): Registry {
  const holder = globalThis as { [REGISTRY]?: Registry };
  return (holder[REGISTRY] ??= new Map());
}

/** Registers (or replaces) kinds; the composition root calls it once per process. */
export function registerCampaignKinds(kinds: readonly CampaignKindDefinition[]): void {
  for (const kind of kinds) registry().set(kind.name, kind);
}

/** The registered kind of this name. */
export function campaignKind(name: CampaignKind): CampaignKindDefinition {
  const kind = registry().get(name);
  if (!kind) throw new Error(`The campaign kind "${name}" is not registered: the process must import lib/engine/campaign-kinds.ts first.`);
  return kind;
}

/** Every registered kind, in registration order. */
export function registeredCampaignKinds(): CampaignKindDefinition[] {
  return [...registry().values()];
}

/** The row, when it is a campaign of `kind`; otherwise that kind's problem for other kinds (e.g. 409 `not_a_bulk_campaign`). */
export function expectKind(row: CampaignRow, kind: CampaignKindDefinition): CampaignRow {
  if (row.kind !== kind.name) throw kind.otherKind(row);
  return row;
}

/** The kind's own view members, and every other registered kind's as absent, in registration order. */
export function kindMembers(row: CampaignRow): CampaignKindMembers {
  const members: Partial<CampaignKindMembers> = {};
  for (const kind of registeredCampaignKinds()) Object.assign(members, kind.name === row.kind ? kind.view.members(row) : kind.view.absent);
  // Every registered kind filled (or blanked) the members it declared.
  return members as CampaignKindMembers;
}
