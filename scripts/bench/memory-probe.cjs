// Loaded into the app by a benchmark only (node --expose-gc --require ./scripts/bench/memory-probe.cjs), never by
// the app's own start: on SIGUSR2 it writes where the process's memory is to BENCH_MEMORY_PROBE as JSON, as it
// stands and again after a full garbage collection, so that a benchmark can tell V8's heap and the buffers it
// holds (external, arrayBuffers) from memory the allocator keeps (resident memory that no collection gives back).
// A .cjs file so that scripts/bench/smoke.sh does not take it for a benchmark.
"use strict";
// process.getBuiltinModule (Node 20.16+): no require() in this repository.
const { readFileSync, writeFileSync } = process.getBuiltinModule("node:fs");

const MB = 1024 * 1024;
/** The process's resident memory in MB, and its anonymous and file-backed parts (Linux /proc). */
function resident() {
  const status = readFileSync("/proc/self/status", "utf8");
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
  return { rss: kb("VmRSS"), anon: kb("RssAnon"), file: kb("RssFile") };
}
function usage() {
  const { heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  const mb = (n) => Math.round((n / MB) * 10) / 10;
  return {
    ...resident(),
    heapUsed: mb(heapUsed),
    heapTotal: mb(heapTotal),
    external: mb(external),
    arrayBuffers: mb(arrayBuffers),
  };
}

const target = process.env.BENCH_MEMORY_PROBE;
if (target && typeof global.gc === "function") {
  process.on("SIGUSR2", () => {
    const before = usage();
    global.gc();
    // Buffers freed by the collection go back to the allocator in their finalizers; give them a moment.
    setTimeout(() => {
      global.gc();
      writeFileSync(target, JSON.stringify({ before, afterGc: usage() }));
    }, 500);
  });
}
