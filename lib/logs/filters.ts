// The one filter schema for campaign logs: the logs pages' search params and the /api/v1 routes
// parse their query string with these schemas.
import { z } from "zod";
import { decodeCursor, type KeysetCursor } from "@/db/cursor";
import { searchParamsRecord } from "@/lib/http/request";
import { LOG_STATUSES, type LogStatus } from "@/lib/statuses/messages";

export { searchParamsRecord };

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

const emptyToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

/**
 * `2026-11-21` (a UTC calendar day) or a full ISO 8601 date-time with an offset. Date-only bounds
 * cover the whole day: `from` starts at its midnight UTC, `to` ends at the next midnight.
 */
function dateBound(kind: "from" | "to") {
  return z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .refine((value) => DATE_ONLY.test(value) || z.iso.datetime({ offset: true }).safeParse(value).success, {
        message: "Use a date (YYYY-MM-DD, UTC) or an ISO 8601 date-time such as 2026-11-21T08:00:00Z.",
      })
      .transform((value, ctx) => {
        const time = Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value);
        if (Number.isNaN(time)) {
          ctx.addIssue({ code: "custom", message: "Not a real date." });
          return z.NEVER;
        }
        return new Date(DATE_ONLY.test(value) && kind === "to" ? time + DAY_MS : time);
      })
      .optional(),
  );
}

const isLogStatus = (value: string): value is LogStatus => (LOG_STATUSES as readonly string[]).includes(value);

const statusFilter = z.preprocess(
  (value) => {
    const joined = Array.isArray(value) ? value.join(",") : value;
    return typeof joined === "string" && joined.trim() === "" ? undefined : joined;
  },
  z
    .string()
    .transform((value, ctx): LogStatus[] => {
      const parts = [...new Set(value.split(",").map((part) => part.trim().toLowerCase()).filter(Boolean))];
      const unknown = parts.filter((part) => !isLogStatus(part));
      if (unknown.length) {
        ctx.addIssue({
          code: "custom",
          message: `Unknown status ${unknown.map((part) => `"${part}"`).join(", ")}. Use one or more of: ${LOG_STATUSES.join(", ")} (comma-separated).`,
        });
        return z.NEVER;
      }
      return parts.filter(isLogStatus);
    })
    .optional(),
);

const phoneSearch = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .max(32, "Phone searches are at most 32 characters.")
    .transform((value) => value.replace(/[^\d]/g, ""))
    .refine((digits) => digits.length > 0, "Search with the digits of a phone number.")
    .optional(),
);

export const LOG_DIRECTIONS = ["outbound", "inbound"] as const;
export type LogDirection = (typeof LOG_DIRECTIONS)[number];

const directionFilter = z.preprocess(
  emptyToUndefined,
  z.enum(LOG_DIRECTIONS, { error: "Use direction=outbound (messages sent) or direction=inbound (replies received)." }).optional(),
);

const repliedFilter = z.preprocess(
  (value) => (typeof value === "string" ? value.trim().toLowerCase() || undefined : value),
  z
    .enum(["true", "false"], { error: "Use replied=true (messages the contact replied to) or replied=false (not replied to)." })
    .transform((value) => value === "true")
    .optional(),
);

const stepFilter = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_-]{0,39}$/, "A journey step's id: a lowercase letter, then letters, digits, - or _.")
    .optional(),
);

/** What the filters select: used for lists, counts and the CSV export alike. */
export const logFiltersSchema = z
  .object({
    status: statusFilter,
    phone: phoneSearch,
    from: dateBound("from"),
    to: dateBound("to"),
    direction: directionFilter,
    replied: repliedFilter,
    step: stepFilter,
  })
  .refine((filters) => !filters.from || !filters.to || filters.from < filters.to, {
    message: "The start of the date range must be before its end.",
    path: ["to"],
  });

export interface LogFilters {
  /** Display statuses; `queued` also matches messages being sent right now. */
  status?: LogStatus[];
  /** Digits of the phone number; matches anywhere in the number. */
  phone?: string;
  /** Inclusive lower bound on `created_at`. */
  from?: Date;
  /** Exclusive upper bound on `created_at`. */
  to?: Date;
  /**
   * Only messages sent (`outbound`) or replies received (`inbound`); both when unset. Replies have
   * no delivery status: a status filter selects sent messages only.
   */
  direction?: LogDirection;
  /**
   * Only messages the contact replied to (`true`) or did not (`false`). Like a status, it selects
   * sent messages only, and the counts ignore it (it is the "Replied" tile's selection).
   */
  replied?: boolean;
  /** Only messages this journey step sent (sent messages only). */
  step?: string;
  /**
   * Leaves test sends out, as the counts do. The CSV export sets it unless asked for
   * `include_tests=true`; the lists show test sends (marked) either way.
   */
  excludeTests?: boolean;
}

const cursorParam = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .max(512)
    .transform((value, ctx): KeysetCursor => {
      const cursor = decodeCursor(value);
      if (!cursor) {
        ctx.addIssue({ code: "custom", message: "This cursor is not valid. Use nextCursor or prevCursor from a previous page." });
        return z.NEVER;
      }
      return cursor;
    })
    .optional(),
);

/** A page of messages: the filters plus the cursor and page size. */
export const logListParamsSchema = z.intersection(
  logFiltersSchema,
  z.object({
    cursor: cursorParam,
    limit: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE)),
  }),
);

export interface LogListParams extends LogFilters {
  cursor?: KeysetCursor;
  limit: number;
}

export function parseLogFilters(input: URLSearchParams | Record<string, string | string[] | undefined>): LogFilters {
  return logFiltersSchema.parse(searchParamsRecord(input));
}

export function parseLogListParams(input: URLSearchParams | Record<string, string | string[] | undefined>): LogListParams {
  return logListParamsSchema.parse(searchParamsRecord(input));
}

/** Filters → query-string entries, for links that keep the current filters (pagination, export). */
export function filtersToSearchParams(raw: Record<string, string | string[] | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ["status", "phone", "from", "to", "direction", "replied", "step"] as const) {
    const value = raw[key];
    const text = Array.isArray(value) ? value.join(",") : value;
    if (text && text.trim()) params.set(key, text.trim());
  }
  return params;
}
