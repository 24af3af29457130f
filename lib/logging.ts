// Turning a thrown error into a log line. Drizzle's query errors put the statement's parameters
// (phones, names, emails) into their message, and driver errors carry the query, its parameters
// and a `detail` that quotes the offending values; a log line keeps none of them.

const MAX_CAUSES = 5;

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  constraint?: unknown;
  constraint_name?: unknown;
  cause?: unknown;
  stack?: unknown;
}

/** A drizzle-orm query failure: the message is "Failed query: <sql>\nparams: <values>". */
function isQueryWrapper(error: ErrorLike): boolean {
  return error.name === "DrizzleQueryError" || (error instanceof Error && "params" in error && "query" in error);
}

/** Postgres (postgres.js `PostgresError`, PGlite `DatabaseError`): a five-character SQLSTATE. */
function isDatabaseError(error: ErrorLike): boolean {
  return typeof error.code === "string" && /^[0-9A-Z]{5}$/.test(error.code);
}

function describeOne(error: unknown): string {
  if (!(error instanceof Error) && (typeof error !== "object" || error === null)) return String(error);
  const e = error as ErrorLike;
  const name = typeof e.name === "string" ? e.name : "Error";
  // PGlite's errors carry `query` and `params` too, so the SQLSTATE test comes first.
  if (isDatabaseError(e)) {
    const constraint = e.constraint ?? e.constraint_name;
    return `database error ${e.code as string}: ${String(e.message)}${typeof constraint === "string" ? ` (constraint ${constraint})` : ""}`;
  }
  if (isQueryWrapper(e)) return "database query failed";
  const code = typeof e.code === "string" || typeof e.code === "number" ? ` [${e.code}]` : "";
  return `${name}${code}: ${String(e.message)}`;
}

/** The stack's frames only: the first line repeats the message, which may hold parameters. */
function stackFrames(error: unknown): string {
  const stack = (error as ErrorLike | null)?.stack;
  if (typeof stack !== "string") return "";
  const frames = stack.split("\n").filter((line) => /^\s+at /.test(line));
  return frames.length > 0 ? `\n${frames.join("\n")}` : "";
}

/**
 * One line per error in the cause chain (the outermost first), then the outermost stack frames:
 * a database error gives its SQLSTATE, message and constraint, never the query's parameters.
 */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current != null && depth < MAX_CAUSES; depth++) {
    parts.push(describeOne(current));
    if (current instanceof AggregateError) {
      for (const inner of current.errors.slice(0, 3)) parts.push(describeOne(inner));
    }
    current = (current as ErrorLike).cause;
  }
  return parts.join(" ← caused by ") + stackFrames(error);
}
