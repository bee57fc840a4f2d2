#!/usr/bin/env bash
# npm run bench:smoke (CI runs it after npm test): every benchmark script in scripts/bench, once, at
# a small size and for a second or so, so that none of them can rot unnoticed. Its figures mean
# nothing; what counts is that each script runs to its end. A real measurement is npm run bench.
#
# The convention for a new benchmark: put it in scripts/bench (NAME.mjs, or NAME.ts run with tsx),
# and make it read BENCH_SMOKE=1 as "run once, at your smallest size, for a few seconds" (say in a
# comment what that means for it, or that it has nothing to shrink). It then joins this run by
# itself; a script that never mentions BENCH_SMOKE fails the run rather than running at full size.
# A helper module (imported by a script here or by a test) is not run.
# The generic knobs below are set too, for scripts that read them.
set -euo pipefail
cd "$(dirname "$0")/../.."
export BENCH_SMOKE=1 BENCH_RUNS=1 BENCH_ROUNDS=1 BENCH_SECONDS=1 BENCH_SIZES=50 BENCH_CONNECTIONS=2
# uploads.mjs: one image per post, and the app under one allocator, the one it runs on (scripts/lib.sh,
# app_malloc_env), instead of each in turn: each is the same code, and each took 18 s.
export BENCH_IMAGES=1 BENCH_ALLOCATORS=app

names=()
for file in scripts/bench/*.mjs scripts/bench/*.ts; do
  name="$(basename "${file%.*}")"
  # A module that a script here or a test imports (lib.mjs, worst-images.mjs), or a process a script here starts
  # that says "@bench-helper" in its first lines (sign-in-probe.mjs), is a helper, not a benchmark.
  grep -rlqE "from \"(\./|[./]*scripts/bench/)$(basename "$file")\"" scripts/bench tests && continue
  head -5 "$file" | grep -qF "@bench-helper" && continue
  if ! grep -q BENCH_SMOKE "$file"; then
    echo "[bench:smoke] $file does not read BENCH_SMOKE (see scripts/bench/smoke.sh): give it a small size" >&2
    exit 1
  fi
  names+=("$name")
done
exec bash scripts/bench/all.sh "${names[@]}"
