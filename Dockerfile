# Cairn on a Node LTS slim image: built in one stage, run as the unprivileged `node` user in another.
# Node 26, the Active LTS (supported until April 2029) and the line of the Node that `npm ci` brings
# where a machine's own is older (node-runtime.js), so the one CI runs the whole suite on (.ci/run).
FROM node:26-trixie-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No compiler and no install scripts: better-sqlite3 ships prebuilt Node-API binaries (from a lock
# file, an npm older than 11.16 would run node-gyp for it all the same, which needs Python: npm/cli
# issue 9837), esbuild's binary is its platform's optional dependency, and this Node needs none
# brought (node-runtime.js).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:26-trixie-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data DRAIN_SECONDS=5
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/server.js /app/memory-flags.js /app/node-runtime.js ./
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
# in place: it stays one process, PID 1.
CMD ["node", "server.js"]
