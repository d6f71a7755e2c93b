# vidops' image: docs/operations.md, "Run it with the image and compose".

# Build: dev dependencies, the TypeScript build, and better-sqlite3's native module. When its
# prebuilt binary cannot be downloaded it compiles, so this stage has the toolchain; the
# headers come from the base image (nodedir), never from a download.
FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts off: `prepare` would build before the sources are here; the one native module is
# built on its own.
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && npm rebuild better-sqlite3
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --ignore-scripts

# Run: production dependencies and the build only, no toolchain, as the base image's `node` user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    PORT=3000
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY manifest.yml ./
# State on a volume: DATABASE_URL's default, sqlite:data/vidops.db, is /app/data/vidops.db.
RUN mkdir data && chown node:node data
VOLUME ["/app/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT||3000}/healthz`).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself is PID 1, not npm: SIGTERM reaches vidops, which finishes its work and exits 0.
# `npm start`'s flags; the command is the bot, or the CLI (`bin/vidops.js audit verify`).
ENTRYPOINT ["node", "--max-semi-space-size=4", "--heap-growing-percent=20"]
CMD ["dist/main.js"]
