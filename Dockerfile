# Cairn on a Node LTS slim image: built in one stage, run as the unprivileged `node` user in another.
# Node 22, which CI tests (.ci/run): better-sqlite3 12 crashes on Node 24 (README, "Deploying").
FROM node:22-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source where no prebuilt binary can be fetched.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data DRAIN_SECONDS=5
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/server.js /app/memory-flags.js ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
STOPSIGNAL SIGTERM
# server.js starts Node again with the memory flags (memory-flags.js, docs/decisions/015-memory-budget.md),
# in place: on Node 22.15 and later it stays one process, PID 1.
CMD ["node", "server.js"]
