# Manzil's production image. Four stages on one base (node:22-bookworm-slim), so that the native module
# (better-sqlite3) is compiled once, against the very Node and glibc the final image runs:
#   toolchain -> build      every dependency, the TypeScript compiled to dist/
#   toolchain -> prod-deps  `npm ci --omit=dev`: the runtime dependencies only
#   runtime                 dist/ + the prod node_modules + migrations + the chart fonts, no compiler, a non-root user, tini as PID 1
# Build: docker build -t manzil .    Run: see docker-compose.yml and docs/operations.md.

FROM node:22-bookworm-slim AS toolchain
# python3, make and g++ compile better-sqlite3 when no prebuilt binary fits this platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./

FROM toolchain AS build
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY src ./src
COPY adapters ./adapters
RUN npm run build

FROM toolchain AS prod-deps
RUN npm ci --omit=dev \
 && npm cache clean --force

FROM node:22-bookworm-slim AS runtime
# tini reaps children and passes SIGTERM on, so the graceful shutdown runs. Charts use the fonts shipped in assets/.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
# OPS_PORT: the detailed /healthz and /metrics on 127.0.0.1:9464 inside the container (OPS_HOST), for the HEALTHCHECK;
# PORT (Slack's events) answers only a liveness /healthz. See docs/security.md, "What is exposed where".
ENV NODE_ENV=production \
    MANZIL_DB_PATH=/data/manzil.db \
    PORT=3000 \
    OPS_PORT=9464 \
    LOG_FORMAT=json
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json package-lock.json ./
COPY bin ./bin
COPY migrations ./migrations
COPY assets ./assets
RUN mkdir -p /data \
 && chown node:node /data
# The image's own unprivileged user (uid 1000); the database lives on the /data volume.
USER node
VOLUME ["/data"]
EXPOSE 3000
# /healthz answers 503 when the database refuses writes, the poller is stuck or the upstream breaker is open. It runs
# inside the container, so the loopback address of the ops server reaches it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.OPS_PORT || process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/src/cli.js", "start"]
