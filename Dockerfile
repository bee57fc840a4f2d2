# The app's image, for docker-compose.yml (a laptop only; production runs deploy/ with systemd).
# Build: docker build -t rapid-website .   (or: buildah bud -t rapid-website .)
# Stage 1 builds with every npm package; stage 2 carries the build and the runtime packages only, on Node 24
# LTS, as an unprivileged user.
FROM docker.io/library/node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN NODE_ENV=production npm run build

FROM docker.io/library/node:24-bookworm-slim
ENV NODE_ENV=production MALLOC_ARENA_MAX=2
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY scripts/server.mjs scripts/env-file.mjs scripts/page-cache.mjs scripts/encoding.mjs scripts/image-worker.mjs ./scripts/
USER node
EXPOSE 3000
CMD ["node", "scripts/server.mjs"]
