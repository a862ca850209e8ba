# Hangar's image for users with Docker/BuildKit (`docker build -t hangar:dev .`). The offline
# path (`make image`, scripts/build-image.sh) produces the same runtime layout without Docker:
#   /usr/local/bin/node (Node 24), /app/{package.json,dist,proto,console/static,node_modules} (production only),
#   /app/.build/hangar-agent (the in-sandbox exec agent, static Go: ADR 0008),
#   /app/.build/hangar-netinit (the sandbox pods' init container: their egress rules, ADR 0012),
#   /app/.build/hangar-forkcsi (the node plugin of copy-on-write restores, ADR 0029: the chart's DaemonSet),
#   /app/.build/hangar-pullwatch (the node reporter of image pulls in progress, ADR 0038),
#   user 10001, entrypoint tini -- node --max-semi-space-size=4 /app/dist/cmd/main.js (tini as pid 1 reaps orphans). Nothing is written outside /tmp, so a
#   read-only root filesystem works (the chart mounts an emptyDir on /tmp).
FROM golang:1.26-bookworm AS agent
WORKDIR /src/agent
COPY agent ./
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /hangar-agent .
WORKDIR /src/netinit
COPY netinit ./
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /hangar-netinit .
WORKDIR /src/forkcsi
COPY forkcsi ./
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /hangar-forkcsi .
WORKDIR /src/pullwatch
COPY pullwatch ./
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /hangar-pullwatch .

FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY api api
COPY cmd cmd
COPY console console
COPY controller controller
COPY core core
COPY runtime runtime
COPY proto proto
RUN npx tsc -p tsconfig.build.json && npm ci --omit=dev --ignore-scripts

FROM node:24-bookworm-slim
# tini is pid 1 and reaps the orphans Hangar's children leave (node reaps only its own children).
# e2fsprogs and mount: the fork plugin (hangar-forkcsi, ADR 0029) makes and mounts ext4 images.
RUN apt-get update && apt-get install -y --no-install-recommends tini e2fsprogs mount && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules node_modules
COPY --from=build /src/dist dist
COPY --from=build /src/proto proto
COPY --from=build /src/console/static console/static
COPY --from=agent /hangar-agent .build/hangar-agent
COPY --from=agent /hangar-netinit .build/hangar-netinit
COPY --from=agent /hangar-forkcsi .build/hangar-forkcsi
COPY --from=agent /hangar-pullwatch .build/hangar-pullwatch
USER 10001:10001
EXPOSE 50051 9464
ENTRYPOINT ["/usr/bin/tini", "--", "node", "--max-semi-space-size=4", "/app/dist/cmd/main.js"]
