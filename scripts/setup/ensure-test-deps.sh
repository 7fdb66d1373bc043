#!/usr/bin/env bash
# Installs what the test suite needs on a fresh machine, and nothing when it is already there:
# npm dependencies (from the lock file), Debian's Chromium for the browser tests and Debian's
# Pebble (an ACME test server) for the certificate tests.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -x node_modules/.bin/tap ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
# The compile sandboxes' Node (installed by the root postinstall, apart from the workspaces).
if ! ls builder/sandbox-runtime/node_modules/node-linux-*/bin/node >/dev/null 2>&1; then
  npm run postinstall
fi
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "chromium is missing: install Debian's chromium package (sudo apt-get install chromium) for the browser tests" >&2
    exit 1
  fi
fi
# Pebble, Let's Encrypt's ACME test server, for the custom-domain certificate tests.
if ! command -v pebble >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pebble >/dev/null
  else
    echo "pebble is missing: install Debian's pebble package (sudo apt-get install pebble) for the certificate tests" >&2
    exit 1
  fi
fi
# tap compiles its runner for the plugin set in .taprc; a fresh install still carries the default
# set (with the TypeScript plugin the tests must not use), so rebuild it before the first run.
npx tap build >/dev/null
