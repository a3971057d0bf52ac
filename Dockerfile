# syntax=docker/dockerfile:1
# Reverie in one image: the API and the built web app on one port (docs/operations.md).
#   docker build -t reverie .
#   docker run -p 3000:3000 -e JWT_SECRET=… -v reverie-data:/app/data reverie

# --- build: install everything, build the web app and the server bundle ---------------------
FROM node:22-bookworm-slim AS build
WORKDIR /app
# node-llama-cpp uses its prebuilt CPU binary; never compile llama.cpp during the install.
ENV NODE_LLAMA_CPP_SKIP_DOWNLOAD=true
# The manifests first, so that the dependency layer is reused while only sources change.
COPY package.json package-lock.json ./
COPY scripts/empty-package ./scripts/empty-package
COPY packages/shared/package.json ./packages/shared/
COPY apps/server/package.json ./apps/server/
COPY apps/web/package.json ./apps/web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund

# --- runtime: the bundle, production dependencies, migrations, content, the web app --------
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/scripts/empty-package ./scripts/empty-package
COPY --from=build /app/packages/shared ./packages/shared
COPY --from=build /app/apps/server/package.json ./apps/server/
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/server/drizzle ./apps/server/drizzle
COPY --from=build /app/apps/server/content ./apps/server/content
COPY --from=build /app/apps/web/package.json ./apps/web/
COPY --from=build /app/apps/web/dist ./apps/web/dist
# Embedded data (PGlite, local media, local models, generated secrets) belongs to the
# unprivileged `node` user of the base image; the process never runs as root.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 3000
# Liveness: the process answers. Orchestrators use /api/ready for traffic (docker-compose.yml).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM goes straight to node (exec form), which stops gracefully (SHUTDOWN_GRACE_S).
CMD ["node", "apps/server/dist/server.js"]
