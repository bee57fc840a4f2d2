#!/usr/bin/env bash
# The inner loop (npm run test:env, then npm run test:one -- FILE...): the full `npm test` lints,
# type-checks, builds and starts everything before one test runs. This starts the test services and
# the built app once and leaves them running, so one test file then runs in seconds against them.
#   npm run test:env            build the app, (re)start it, start the services if they are not up
#   npm run test:env -- --no-build   restart the app on the last build (after a change the app does not see)
#   npm run test:one -- tests/e2e/contact.test.ts    run files against what test:env started
#   npm run test:env -- stop    stop the app and the services
# Like npm test it honours TEST_PORT_OFFSET. The environment is written to data/test/env for test:one.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/test-lib.sh

pidfile=data/test/run/app.pid
# Stops the app and waits for it to be gone, so the next start gets the port (not the old build).
stop_app() {
  if [[ -f "$pidfile" ]]; then
    local pid
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}

if [[ "${1:-}" == stop ]]; then
  stop_app
  bash scripts/services.sh stop test
  exit 0
fi

ensure_node_modules
bash scripts/services.sh start test
test_env_vars
if [[ "${1:-}" != --no-build ]]; then
  say "building the app..."
  NODE_ENV=production npm run -s build
fi
stop_app
start_test_app
if ! kill -0 "$app" 2>/dev/null; then
  say "the app did not start (is another one holding $APP_URL?): see data/test/log/app.log"
  exit 1
fi
echo "$app" >"$pidfile"
export -p | grep -E ' (NODE_ENV|PORT|APP_URL|MONGODB_URI|SMTP_URL|MAILPIT_API_URL|S3_[A-Z_]+|STRIPE_[A-Z_]+|OUTBOX_[A-Z_]+|CRON_SECRET|TEST_PORT_OFFSET)=' >data/test/env
say "the app is up at $APP_URL (log: data/test/log/app.log); run: npm run test:one -- FILE..."
