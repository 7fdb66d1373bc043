# syntax=docker/dockerfile:1
# Folio control plane: the REST API (/v1), the internal build API, Git smart HTTP for managed
# repositories, and the site server, in one process (scripts/src/start.ts with BUILDER_WORKERS=0;
# builders run in their own containers). Build from the repository root:
#   docker build -f docker/control-plane.Dockerfile -t folio/control-plane .
#
# The app runs its TypeScript through tsx, as it does in development: there is no build step, so
# the image holds the sources and tsx transpiles them on load (a second or two at start-up).
ARG NODE_IMAGE=node:20-bookworm-slim

# ---- deps: production dependencies of every workspace, exactly as the lock file pins them ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY control-plane/package.json control-plane/
COPY control-plane/embedded-mongo/package.json control-plane/embedded-mongo/
COPY builder/package.json builder/
COPY site-template/package.json site-template/
COPY scripts/package.json scripts/
# --omit=dev keeps tsx: it is an optional peer of vite as well as a dev tool, so npm counts it as
# "devOptional" and installs it. Install scripts stay off: no dependency needs one.
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && test -f node_modules/tsx/package.json

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
# git: managed repositories are created with the git CLI and served through `git http-backend`.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 folio \
 && useradd --system --uid 10001 --gid folio --home-dir /app --shell /usr/sbin/nologin folio
ENV NODE_ENV=production \
    API_HOST=0.0.0.0 \
    API_PORT=4000 \
    SITE_HOST=0.0.0.0 \
    SITE_PORT=4100 \
    DATA_DIR=/app/data \
    BUILDER_WORKERS=0
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY control-plane/package.json control-plane/
COPY control-plane/src control-plane/src
COPY control-plane/embedded-mongo/package.json control-plane/embedded-mongo/
COPY control-plane/embedded-mongo/src control-plane/embedded-mongo/src
COPY builder/package.json builder/
COPY builder/src builder/src
COPY builder/schema builder/schema
COPY site-template/package.json site-template/
COPY site-template/src site-template/src
COPY scripts/package.json scripts/
COPY scripts/src scripts/src
COPY docker/control-plane-healthcheck.mjs docker/
# DATA_DIR holds the managed Git repositories: mount a volume there (one control plane per volume).
RUN mkdir -p /app/data && chown folio:folio /app/data
VOLUME ["/app/data"]
USER folio
EXPOSE 4000 4100 4443
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "docker/control-plane-healthcheck.mjs"]
# start.ts stops the servers and closes the database on SIGTERM.
STOPSIGNAL SIGTERM
# A 64 MB semi-space (young generation), as in `npm start`: with the default size, ingesting a
# million analytics events took about a quarter more CPU (see control-plane/docs/benchmarks.md).
CMD ["node", "--max-semi-space-size=64", "--import", "tsx", "scripts/src/start.ts"]
