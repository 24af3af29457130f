# syntax=docker/dockerfile:1
# Sendstream for self-hosters. Two images from one file (docker-compose.yml uses both):
#   runner (default): the web server alone, `node server.js` from Next's standalone output, no npm
#                     and no node_modules beyond what the server loads;
#   tools:            the source and every dependency, for `npm run db:migrate` (run before a new
#                     version starts: the web server never migrates Postgres) and the worker (its
#                     default command: `npm run worker`'s script, with node as tini's child so that
#                     SIGTERM reaches it; npm does not pass the signal on).
# docker build -t sendstream .                       docker build --target tools -t sendstream-tools .
ARG NODE_VERSION=20

FROM node:${NODE_VERSION}-bookworm-slim AS base
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
# tini as PID 1 hands SIGTERM on to node and reaps zombies (Kubernetes has no `--init`); node then
# runs its own shutdown (lib/shutdown.ts: gone within 8 s, inside the default 10 s grace).
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
ENTRYPOINT ["/usr/bin/tini", "--"]

FROM base AS deps
COPY package.json package-lock.json ./
# postinstall applies patches/ (the postgres driver's fix): it must be there before npm ci.
COPY patches ./patches
RUN npm ci --no-audit --no-fund

FROM base AS build
COPY --from=deps /app/node_modules ./node_modules
COPY . .
RUN npm run build

# The job loop and the migrations run from source with tsx (a dev dependency): full node_modules.
FROM base AS tools
ENV NODE_ENV=production
COPY --from=deps /app/node_modules ./node_modules
COPY . .
USER node
CMD ["node", "--import", "tsx", "lib/engine/worker-main.ts"]

FROM base AS runner
ENV NODE_ENV=production PORT=3000 HOSTNAME=0.0.0.0
# server.js changes into /app: the embedded database (no DATABASE_URL) and a generated session
# secret land in /app/.data; mount a volume there to keep them.
RUN mkdir .data && chown node:node .data
COPY --from=build --chown=node:node /app/public ./public
COPY --from=build --chown=node:node /app/.next/standalone ./
COPY --from=build --chown=node:node /app/.next/static ./.next/static
USER node
EXPOSE 3000
# No curl in slim images: node asks. 503 (database unreachable, job loop stalled) is unhealthy.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.js"]
