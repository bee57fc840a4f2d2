// @bench-helper: the sign-ins of a benchmark, from a process of their own, started at the normal priority before the benchmark
// lowers its own (image-attack.mjs, uploads.mjs): the benchmark's work (an attacker's 16 loops of 3 MB bodies, which
// on a real server run elsewhere) then delays neither the sign-ins' clock nor their sending. Driven by lines on stdin:
// "count N" signs in N times, "start" signs in until "stop"; each answers one line on stdout, the sign-ins' times
// in ms as JSON. Closing stdin ends it.
//   node scripts/bench/sign-in-probe.mjs http://127.0.0.1:3725
import { createInterface } from "node:readline";
import { signIn } from "./lib.mjs";

const app = { url: process.argv[2] };
let running = null;
let stop = false;

async function signIns(count) {
  const times = [];
  while (!stop && (count === 0 || times.length < count)) {
    const started = performance.now();
    times.push(await signIn(app).catch(() => performance.now() - started));
  }
  return times;
}
const answer = (times) => process.stdout.write(`${JSON.stringify(times)}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  const [command, n] = line.trim().split(/\s+/);
  if (command === "count") answer(await signIns(Number(n)));
  else if (command === "start") {
    stop = false;
    running = signIns(0);
  } else if (command === "stop" && running) {
    stop = true;
    answer(await running);
    running = null;
  }
}
process.exit(0);
