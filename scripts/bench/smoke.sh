#!/usr/bin/env bash
# npm run bench:smoke (CI runs it after npm test): every benchmark script once, at a small size and
# for a second or so, so that none of them can rot unnoticed. Its figures mean nothing; what counts
# is that each script runs to its end. A real measurement is npm run bench (see README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
export BENCH_RUNS=1 BENCH_ROUNDS=1 BENCH_SECONDS=1 BENCH_SIZES=50 BENCH_CONNECTIONS=2 SOAK_RPS=5 SOAK_MINUTES=1
exec bash scripts/bench/all.sh page-weight slow-links lighthouse throughput profile intake-step admin-orders cron indexes soak
