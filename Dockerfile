# hermes-router in a container: docker build -t hermes-router . && docker run -p 8319:8319 \
#   -e HERMES_ROUTER_ADMIN_KEY=<long random secret> -v hermes-router:/data -v $PWD/hermes-router.yaml:/app/hermes-router.yaml:ro hermes-router
FROM node:20-bookworm-slim AS build
# better-sqlite3 downloads a prebuilt binary from GitHub; where it cannot (no route to GitHub, an architecture
# without one) it compiles from source, which needs these. Only the build stage has them.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY bin ./bin
COPY scripts/build ./scripts/build
COPY dashboard ./dashboard
COPY data ./data
RUN npm ci && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    HERMES_ROUTER_HOME=/data \
    HERMES_ROUTER_HOST=0.0.0.0 \
    HERMES_ROUTER_PORT=8319
COPY --from=build /app /app
# The config is ./hermes-router.yaml in /app (mount it there); the ledger and keys live in the /data volume.
RUN mkdir -p /data && chown node:node /data
# A non-loopback bind refuses to start without HERMES_ROUTER_ADMIN_KEY (README, Security), and every model request
# then needs an application key: create them with `docker exec <container> node bin/hermes-router.js keys create`.
VOLUME ["/data"]
EXPOSE 8319
USER node
ENTRYPOINT ["node", "bin/hermes-router.js"]
CMD ["start"]
