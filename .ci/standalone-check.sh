#!/usr/bin/env bash
# The standalone server (what the Docker image runs: `node server.js` from <distDir>/standalone),
# copied out of the checkout so that only the files it traced are there, starts on DATABASE_URL,
# answers /api/health with 200 and a sign-in page, and, sent SIGTERM, exits within Docker's 10 s
# grace. Needs a production build and a migrated database. Usage: DATABASE_URL=postgres://… [NEXT_DIST_DIR=.next] [PORT=3400] .ci/standalone-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

: "${DATABASE_URL:?set DATABASE_URL (a migrated Postgres database)}"
dist=${NEXT_DIST_DIR:-.next}
port=${PORT:-3400}
server="$dist/standalone/server.js"
[ -f "$server" ] || { echo "✗ $server is missing: build first (output: \"standalone\")" >&2; exit 1; }
log=$(mktemp)
# Outside the checkout, as in the image: a module tracing missed would otherwise load from ./node_modules.
app=$(mktemp -d)
cp -a "$dist/standalone/." "$app/"
trap 'rm -rf "$app" "$log"' EXIT
random_hex() { node -e 'console.log(require("node:crypto").randomBytes(32).toString("hex"))'; }

(cd "$app" && exec env PORT="$port" HOSTNAME=127.0.0.1 DATABASE_URL="$DATABASE_URL" \
  AUTH_SECRET="${AUTH_SECRET:-$(random_hex)}" ENCRYPTION_KEY="${ENCRYPTION_KEY:-$(random_hex)}" \
  APP_URL="http://127.0.0.1:$port" DISPATCHER="${DISPATCHER:-on}" node server.js) >"$log" 2>&1 &
pid=$!
fail() { echo "✗ $*" >&2; echo "--- server log" >&2; cat "$log" >&2; kill -KILL "$pid" 2>/dev/null || true; exit 1; }

started=$(date +%s%N)
body=""
for _ in $(seq 1 120); do
  kill -0 "$pid" 2>/dev/null || fail "the server exited before it was ready"
  body=$(curl -sf --max-time 5 "http://127.0.0.1:$port/api/health" || true)
  [[ "$body" == *'"database":"postgres"'* ]] && break
  body=""
  sleep 0.5
done
[ -n "$body" ] || fail "/api/health did not answer 200 with database postgres within 60 s"
echo "✓ /api/health after $(( ($(date +%s%N) - started) / 1000000 )) ms: $body"

page=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "http://127.0.0.1:$port/sign-in")
[ "$page" = 200 ] || fail "/sign-in answered $page"
echo "✓ /sign-in: 200"

sent=$(date +%s%N)
kill -TERM "$pid"
rc=0
for _ in $(seq 1 100); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "still running 10 s after SIGTERM"
wait "$pid" || rc=$?
# 143: the shutdown deadline's exit code for SIGTERM (lib/shutdown.ts), or the signal's own.
[ "$rc" = 0 ] || [ "$rc" = 143 ] || fail "exit code $rc after SIGTERM"
echo "✓ exited $(( ($(date +%s%N) - sent) / 1000000 )) ms after SIGTERM (exit code $rc)"
