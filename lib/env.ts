import { z } from "zod";

const optionalUrl = z.url().optional();
const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.preprocess(emptyToUndefined, z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL").optional()),
  DATABASE_POOL_MAX: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100).optional()),
  PGLITE_DIR: z.preprocess(emptyToUndefined, z.string().optional()),
  AUTH_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, "must be at least 32 characters").optional()),
  APP_URL: z.preprocess(emptyToUndefined, optionalUrl),
  API_URL: z.preprocess(emptyToUndefined, optionalUrl),
  CRON_SECRET: z.preprocess(emptyToUndefined, z.string().min(16, "must be at least 16 characters").optional()),
  ENCRYPTION_KEY: z.preprocess(
    emptyToUndefined,
    z.string().regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters (32 bytes)").optional(),
  ),
  /** `<id>:<64 hex>,<id>:<64 hex>`: the first encrypts, all decrypt (key rotation). */
  ENCRYPTION_KEYS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\s*[A-Za-z0-9_-]{1,32}:[0-9a-fA-F]{64}\s*(,\s*[A-Za-z0-9_-]{1,32}:[0-9a-fA-F]{64}\s*)*$/, "must be <id>:<64 hex characters>, comma-separated, the current key first")
      .optional(),
  ),
  NEXT_PHASE: z.string().optional(),
  /** The WhatsApp Cloud API base URL (a local fake in tests); unset, the WhatsApp channel uses Meta's. */
  WHATSAPP_GRAPH_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  WHATSAPP_GRAPH_VERSION: z.preprocess(emptyToUndefined, z.string().regex(/^v\d+\.\d+$/).default("v23.0")),
  GITHUB_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  GITHUB_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  GOOGLE_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  GOOGLE_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  /**
   * How many reverse proxies in front of the app append to X-Forwarded-For; the client address is
   * the entry the outermost one added (n-th from the right). 0: the header is not trusted at all.
   */
  TRUSTED_PROXY_HOPS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(10).default(0)),
  MAIL_TRANSPORT: z.preprocess(emptyToUndefined, z.enum(["console", "webhook", "file", "none"]).optional()),
  MAIL_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
  MAIL_WEBHOOK_URL: z.preprocess(emptyToUndefined, optionalUrl),
  MAIL_WEBHOOK_TOKEN: z.preprocess(emptyToUndefined, z.string().optional()),
  /** `true`: event webhooks may point at private and loopback addresses, over plain http (development, tests). */
  WEBHOOKS_ALLOW_PRIVATE_URLS: z.preprocess(emptyToUndefined, z.enum(["true", "false"]).optional()),
  SENDSTREAM_SEED: z.preprocess(emptyToUndefined, z.enum(["true", "false"]).optional()),
  VERCEL: z.string().optional(),
  /** Serverless mode (lib/jobs/chain.ts): `on` without Vercel, `off` to turn it off on Vercel. */
  DISPATCH_CHAIN: z.preprocess(emptyToUndefined, z.enum(["on", "off"]).optional()),
  /** How often alerts are evaluated (s; lib/alerts/jobs.ts). */
  ALERTS_EVERY_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3600).optional()),
  /** How long a hop of the dispatch chain may run (ms), when lower than the cron route's maxDuration. */
  FUNCTION_TIME_LIMIT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1_000).max(900_000).optional()),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/** Forget the validated environment, for tests that change process.env. */
export function resetEnvCache(): void {
  cached = undefined;
}

/** Validated environment. Throws one readable error listing every bad variable. */
export function getEnv(source: Record<string, string | undefined> = process.env): Env {
  if (cached && source === process.env) return cached;
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  if (parsed.data.VERCEL && !parsed.data.DATABASE_URL) {
    throw new Error(
      "DATABASE_URL is required on Vercel: add a Postgres database and set DATABASE_URL in the project's environment variables.",
    );
  }
  if (parsed.data.MAIL_TRANSPORT === "webhook" && !parsed.data.MAIL_WEBHOOK_URL) {
    throw new Error("MAIL_WEBHOOK_URL is required with MAIL_TRANSPORT=webhook: the URL the mail is POSTed to.");
  }
  const serving = parsed.data.NODE_ENV === "production" && parsed.data.NEXT_PHASE !== "phase-production-build";
  if (serving && !parsed.data.ENCRYPTION_KEY && !parsed.data.ENCRYPTION_KEYS) {
    throw new Error(
      "ENCRYPTION_KEY is required in production: it encrypts the stored WhatsApp credentials, independently of AUTH_SECRET. Generate one with `openssl rand -hex 32`.",
    );
  }
  if (source === process.env) cached = parsed.data;
  return parsed.data;
}

/**
 * The one place that decides the web app's public base URL (no trailing slash): APP_URL when set,
 * else the origin the request came in on (pass it: `originOfRequest(request)` in route handlers,
 * `await requestOrigin()` in pages), else, for work outside any request, this process's own port on
 * localhost. Every public URL shown or sent (Meta's callback URL, webhook and trigger URLs, links in
 * mail and docs) is built on it.
 */
export function appUrl(requestOrigin: string | undefined): string {
  return (getEnv().APP_URL ?? requestOrigin ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, "");
}

/** Base URL used in webhook URLs (`{api_url}/outbound/{id}`); defaults to the app URL. */
export function apiUrl(requestOrigin: string | undefined): string {
  return (getEnv().API_URL ?? appUrl(requestOrigin)).replace(/\/+$/, "");
}
