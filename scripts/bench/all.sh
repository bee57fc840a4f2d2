#!/usr/bin/env bash
# npm run bench: every benchmark in turn against one set of services and one
# fresh build; each prints its figures, also kept in test-results/bench/NAME.txt.
#   TEST_PORT_OFFSET=600 npm run bench                 (all, about 10 minutes)
#   npm run bench -- throughput lighthouse             (some)
# The soak is separate (npm run soak: 10 minutes at 50 req/s).
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
ensure_node_modules

names=("$@")
if [[ ${#names[@]} -eq 0 ]]; then
  names=(page-weight slow-links lighthouse throughput)
  # Written by other work and run here when present: intake step writes, the admin orders page, image work
  # from one intake link under attack (a few minutes: it decodes until the link's hour is used up).
  for extra in intake-step admin-orders image-attack; do [[ -f "scripts/bench/$extra.mjs" || -f "scripts/bench/$extra.ts" ]] && names+=("$extra"); done
fi

started=""
# Read whole, not piped to grep -q: under pipefail grep's early exit fails the pipe (SIGPIPE) and
# the services test:env left running were taken as stopped, then stopped at the end.
if [[ "$(bash scripts/services.sh status test)" != *"mongo: running"* ]]; then
  bash scripts/services.sh start test && started=1
fi
trap '[[ -n "$started" ]] && bash scripts/services.sh stop test' EXIT
# npm run build, not a bare remix build: it also drops empty chunks and
# precompresses the assets, so the benchmarks measure what production serves.
if [[ "${BENCH_SMOKE:-}" == 1 && -f build/index.js ]]; then
  say "using the build that is there (a smoke run: CI's npm test has just made it)"
else
  say "building the app (npm run build)..."
  NODE_ENV=production npm run --silent build >/dev/null
fi

mkdir -p test-results/bench
status=0
for name in "${names[@]}"; do
  say "$name"
  if [[ -f "scripts/bench/$name.ts" ]]; then run=(npx tsx "scripts/bench/$name.ts"); else run=(node "scripts/bench/$name.mjs"); fi
  # The TypeScript ones import the app's server modules and read the services from the environment.
  (set -a; eval "$(bash scripts/services.sh env test)"; "${run[@]}") | tee "test-results/bench/$name.txt" || status=1
done
exit "$status"
