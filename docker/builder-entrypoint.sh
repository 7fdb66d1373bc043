#!/bin/sh
# Entry of the builder image: `worker` (default) or `ci-deploy [options]`; anything else runs as is.
set -e
case "$1" in
  worker) shift; exec node scripts/bin/run-bundled.mjs --packages=external builder/src/worker/main.ts "$@" ;;
  ci-deploy) shift; exec node scripts/bin/run-bundled.mjs --packages=external builder/src/ci/main.ts "$@" ;;
  *) exec "$@" ;;
esac
