# syntax=docker/dockerfile:1
# Folio builder. Two uses of one image:
#   - default command `worker`: a builder worker that claims jobs from the control plane's internal
#     build API (CONTROL_PLANE_URL, WORKER_SECRET); each job builds in a process of its own that
#     publishes through the control plane with the job's token (no storage credentials here);
#   - `ci-deploy --dir <checkout> --project <id>`: a step in a customer's CI that builds the
#     checked-out repository and publishes through the control plane (FOLIO_API_URL,
#     FOLIO_API_KEY); it holds no storage credentials.
# Build from the repository root:
#   docker build -f docker/builder.Dockerfile -t folio/builder .
#
# The worker and `ci-deploy` run from bundles of their TypeScript (scripts/bin/run-bundled.mjs,
# made when the image is built), as `npm start` and `build-site` do; a build process starts from a
# bundle too, so it carries no tsx loader. The builder clones with isomorphic-git, so the image
# has no git CLI.
ARG NODE_IMAGE=node:20-bookworm-slim

# ---- deps: production dependencies, exactly as the lock file pins them ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY control-plane/package.json control-plane/
COPY control-plane/embedded-mongo/package.json control-plane/embedded-mongo/
COPY builder/package.json builder/
COPY site-template/package.json site-template/
COPY scripts/package.json scripts/
COPY builder/sandbox-runtime/package.json builder/sandbox-runtime/package-lock.json builder/sandbox-runtime/
# The lock file covers every workspace, so `npm ci` needs every workspace's package.json (the
# control plane's packages come along; the builder never imports them, a lint rule sees to that).
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && test -f node_modules/tsx/package.json \
 && test -d node_modules/@pagefind \
 && npm ci --prefix builder/sandbox-runtime --no-bin-links --ignore-scripts --no-audit --no-fund \
 && test -x "builder/sandbox-runtime/node_modules/node-linux-$(uname -m | sed 's/x86_64/x64/;s/aarch64/arm64/')/bin/node"

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
RUN groupadd --system --gid 10001 folio \
 && useradd --system --uid 10001 --gid folio --home-dir /app --shell /usr/sbin/nologin folio
ENV NODE_ENV=production \
    HEALTH_FILE=/tmp/folio-builder.alive \
    WORK_DIR=/tmp/folio-work \
    GRACEFUL_MS=60000
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY builder/package.json builder/
# Node 26 for the compile sandboxes (customer MDX runs only there, under its permission model).
COPY builder/sandbox-runtime/package.json builder/sandbox-runtime/
COPY --from=deps /app/builder/sandbox-runtime/node_modules builder/sandbox-runtime/node_modules
COPY builder/src builder/src
COPY builder/schema builder/schema
COPY site-template/package.json site-template/
COPY site-template/src site-template/src
COPY docker/builder-healthcheck.mjs docker/builder-entrypoint.sh docker/
COPY scripts/bin/run-bundled.mjs scripts/bin/
# The client bundle is built once per template version; building it here makes every container
# (and every CI run) start warm instead of running Vite on its first job.
RUN mkdir -p site-template/node_modules/.cache node_modules/.cache/folio-sandbox-code node_modules/.cache/folio-cli node_modules/.cache/folio-template /app/data \
 && chown -R folio:folio site-template/node_modules node_modules/.cache/folio-sandbox-code node_modules/.cache/folio-cli node_modules/.cache/folio-template /app/data \
 && chmod 0755 docker/builder-entrypoint.sh
USER folio
RUN node --import tsx --input-type=module -e "const t = await import('@folio/site-template'); const os = await import('node:os'); await t.buildClientAssets(os.tmpdir() + '/warm')" \
 && rm -rf /tmp/warm
# The compile sandboxes' code cache (builder/src/sandbox/code-cache.ts), recorded from the
# platform's own page: every sandbox starts with a copy instead of compiling its modules. Starting
# that sandbox also makes the site template's components bundle (builder/src/compile/template-bundle.ts),
# so sandboxes start without Vite.
RUN node --import tsx --input-type=module -e "const w = await import('./builder/src/sandbox/code-cache-warmup.ts'); await w.warmCodeCache({ osLayers: false, heapMb: 1024 })"
# The commands' bundles (the worker, a job's build process, ci-deploy): no container bundles on start.
RUN for entry in builder/src/worker/main.ts builder/src/worker/build-process.ts builder/src/ci/main.ts; do \
      node scripts/bin/run-bundled.mjs --prepare --packages=external "$entry" || exit 1; \
    done
# Liveness: the worker rewrites HEALTH_FILE every few seconds while its event loop runs.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "docker/builder-healthcheck.mjs"]
# On SIGTERM a worker lets the job in progress finish for GRACEFUL_MS, then hands it back (its
# lease released, so another worker starts it at once); give the container longer than that.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/app/docker/builder-entrypoint.sh"]
CMD ["worker"]
