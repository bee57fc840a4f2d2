# Shared by test.sh (the full run) and test-env.sh (the inner loop): the test services, the
# environment that points the app and the tests at them, and the built app serving on it.

# Exports the test environment (services on TEST_PORT_OFFSET, the app's port and secrets).
test_env_vars() {
  set -a
  eval "$(bash scripts/services.sh env test)"
  NODE_ENV=test
  PORT=$((3100 + ${TEST_PORT_OFFSET:-0}))
  APP_URL=http://127.0.0.1:$PORT
  MONGODB_URI="${MONGODB_URI%/*}/rapid-website-e2e"
  OUTBOX_POLL_MS=200
  OUTBOX_BACKOFF_MS=200
  CRON_SECRET=test-cron-secret
  set +a
}

# Starts the built app in the background on $APP_URL, logging to data/test/log/app.log; sets $app.
# The browser tests pay through the offline test checkout; the integration tests talk to stripe-mock.
start_test_app() {
  local malloc_env
  mapfile -t malloc_env < <(app_malloc_env)
  env -u STRIPE_SECRET_KEY -u STRIPE_API_BASE "${malloc_env[@]}" node scripts/server.mjs >data/test/log/app.log 2>&1 &
  app=$!
  wait_for_app "$APP_URL"
}
