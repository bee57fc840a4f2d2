#!/usr/bin/env bash
# npm test: builds and starts the test services and the app, runs every test
# (unit, integration, end-to-end in Chromium, page weight), and stops them all.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/test-lib.sh

ensure_node_modules
if [[ ! -x /usr/bin/chromium ]]; then
  say "the browser tests need Debian's Chromium at /usr/bin/chromium: apt-get install chromium"
  exit 1
fi

app=""
cleanup() {
  [[ -n "$app" ]] && kill "$app" 2>/dev/null || true
  bash scripts/services.sh stop test || true
}
trap cleanup EXIT INT TERM

bash scripts/services.sh start test
test_env_vars

# Lint, formatting, types, unused code (knip: files, exports and dependencies nothing uses; knip.jsonc) and
# the build are independent, and the first four are one process on one core each: side by side they take
# about the longest one's time instead of the sum. Each one's output is kept in test-results/checks/ and
# shown when it fails.
say "linting, checking the formatting, type-checking, looking for unused code and building the app, side by side..."
mkdir -p test-results/checks
declare -A check_pids=()
start_check() { # name command...
  local name="$1"
  shift
  "$@" >"test-results/checks/$name.txt" 2>&1 &
  check_pids[$name]=$!
}
start_check lint npx eslint --max-warnings 0 .
start_check format npx prettier --list-different .
start_check types npx tsc
start_check unused npx knip
start_check build env NODE_ENV=production npm run -s build
failed=0
for name in lint format types unused build; do
  wait "${check_pids[$name]}" && continue
  failed=1
  case "$name" in
    format) say "files are not formatted: run npm run format" ;;
    *) say "$name failed:" ;;
  esac
  grep -v '^npm warn' "test-results/checks/$name.txt" >&2 || true
done
[[ $failed -eq 0 ]] || exit 1
grep -v '^npm warn' test-results/checks/build.txt || true
start_test_app

status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json "$@" || status=$?

# Only on a full run: the page weight of every public page, of the customer's pages (the intake
# steps, order status, dashboard; reached as a new buyer through the offline test checkout) and of the
# admin's pages (as a new admin, made here, who signs in and sets up the second factor), one check
# per page. --strict: a page that could not be reached fails instead of being skipped.
weight_passed=0 weight_failed=0
if [[ $# -eq 0 ]]; then
  weight_admin="page-weight-admin-$(date +%s)@example.test" weight_password="pw-$(node -e 'console.log(require("crypto").randomBytes(12).toString("hex"))')"
  ADMIN_PASSWORD="$weight_password" npx tsx scripts/create-admin.ts "$weight_admin" >/dev/null || status=1
  if PAGE_WEIGHT_ADMIN="$weight_admin $weight_password" node scripts/page-weight.mjs --strict "$APP_URL" | tee test-results/page-weight.txt; then :; else status=1; fi
  weight_passed=$(grep -c ' ok$' test-results/page-weight.txt || true)
  weight_failed=$(grep -cE ' OVER| FAILED: ' test-results/page-weight.txt || true)
fi

node -e '
  const r = require("./test-results/vitest.json");
  const passed = r.numPassedTests + Number(process.argv[1]), failed = r.numFailedTests + Number(process.argv[2]);
  console.log(`tests: ${passed} passed, ${failed} failed`);
' "$weight_passed" "$weight_failed"
exit "$status"
