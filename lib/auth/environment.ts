import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

let prepared = false;

/**
 * Makes next-auth work on a fresh machine: a session secret (AUTH_SECRET, or one generated once
 * and kept in `.data/auth-secret` when self-hosting) and the public origin (APP_URL, or the
 * request's host when none is configured).
 */
export function prepareAuthEnvironment(): void {
  if (prepared || process.env.NEXT_PHASE === "phase-production-build") return;
  prepared = true;
  process.env.AUTH_SECRET ??= process.env.NEXTAUTH_SECRET ?? persistedSecret();
  if (process.env.APP_URL) process.env.NEXTAUTH_URL ??= process.env.APP_URL;
  else if (!process.env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= "true";
}

function persistedSecret(): string {
  if (process.env.VERCEL) {
    throw new Error("AUTH_SECRET is not set. Generate one with `openssl rand -base64 32` and add it to the Vercel project's environment variables.");
  }
  const file = path.join(process.cwd(), ".data", "auth-secret");
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing) return existing;
  } catch {
    // first start
  }
  const secret = randomBytes(32).toString("base64url");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
