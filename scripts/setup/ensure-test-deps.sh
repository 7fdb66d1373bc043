#!/usr/bin/env bash
# Installs what the test suite needs on a fresh machine, and nothing when it is already there:
# npm dependencies (from the lock file), Debian's Chromium for the browser tests, and Debian's
# Pebble (an ACME test server) and Caddy for the certificate tests.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -x node_modules/.bin/tap ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
# The compile sandboxes' Node (installed by the root postinstall, apart from the workspaces).
if ! ls builder/sandbox-runtime/node_modules/node-linux-*/bin/node >/dev/null 2>&1; then
  npm run postinstall
fi
# A Debian package a test needs: installed when its command is missing (as root), else a clear stop.
ensure_debian_package() { # command package what-for
  command -v "$1" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
  else
    echo "$1 is missing: install Debian's $2 package (sudo apt-get install $2) for $3" >&2
    exit 1
  fi
}
ensure_debian_package chromium chromium "the browser tests"
# Pebble, Let's Encrypt's ACME test server, for the custom-domain certificate tests.
ensure_debian_package pebble pebble "the certificate tests"
# Caddy runs docker/Caddyfile (on-demand TLS in front of the site server) in its test; its
# packaged service is left stopped.
if ! command -v caddy >/dev/null 2>&1; then
  ensure_debian_package caddy caddy "the edge TLS test"
  if command -v systemctl >/dev/null 2>&1; then systemctl disable --now caddy >/dev/null 2>&1 || true; fi
fi
# tap compiles its runner for the plugin set in .taprc; a fresh install still carries the default
# set (with the TypeScript plugin the tests must not use), so rebuild it before the first run.
npx tap build >/dev/null
