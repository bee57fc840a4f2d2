#!/usr/bin/env bash
# npm run test:one -- FILE...: runs test files against the services and app that
# `npm run test:env` left running (seconds, not the full run's minutes). No lint, type-check or build.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
if [[ ! -f data/test/env ]] || ! curl -fsS "$(source data/test/env; echo "$APP_URL")/healthz" >/dev/null 2>&1; then
  say "nothing is running: start it with npm run test:env"
  exit 1
fi
source data/test/env
exec npx vitest run "$@"
