// Image uploads under attack. Not a test: it prints figures. The built app runs in
// production mode on loopback against the test services. For each photo format step 4 accepts, a
// customer who bought a website posts step 4 with 12 of that format's worst case (scripts/bench/
// worst-images.mjs: just under the 50 MP cap, as small on the wire as the format allows and the app
// still decodes), while a second connection, from a process of its own, signs in over and over. Each post comes from its own
// intake link and address: a link's hour of decoding holds 1,000 MP (IMAGE_BUDGET in
// app/server/images.server.ts) and a post of 12 x 49.9 MP takes 600 of it, so every image is decoded,
// which is what is measured here (scripts/bench/image-attack.mjs measures the budget itself). Prints each post's time and answer, the app process's
// peak resident memory, its memory a while after, and sign-in p95 during the posts against idle.
// The app runs once per memory allocator setting, one after the other in the same run, so that a noisy machine
// weighs on each alike (name each twice to interleave: jemalloc,app,jemalloc,app). Where the memory stays
// after the posts is read from inside the app (scripts/bench/memory-probe.cjs): V8's heap and the buffers it
// holds, as they are and after a full collection, against what the allocator keeps.
//   TEST_PORT_OFFSET=200 node scripts/bench/uploads.mjs
//   node scripts/bench/uploads.mjs --small      (CI's smoke: 2 images of 1 MP per format)
//   BENCH_IMAGES=12 BENCH_MEGAPIXELS=49.9       the defaults
//   BENCH_ALLOCATORS=jemalloc,app               the default, in this order; also glibc, arena2
// Targets: peak RSS under 512 MB, RSS back within 50 MB of the start, sign-in p95 within 2x idle.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import {
  customerAtStep4,
  ensureBucket,
  JEMALLOC,
  knob,
  machine,
  postMultipart,
  quantile,
  ROOT,
  say,
  seedSignInAccounts,
  signIn,
  signInProbe,
  sleep,
  startBench,
} from "./lib.mjs";
import { worstImages } from "./worst-images.mjs";

// BENCH_SMOKE=1 (npm run bench:smoke) is --small: 2 images of 1 MP per format, about 10 s in all.
const SMALL = process.argv.includes("--small") || process.env.BENCH_SMOKE === "1";
const IMAGES = knob("BENCH_IMAGES", SMALL ? 2 : 12, 1, 12);
const MEGAPIXELS = knob("BENCH_MEGAPIXELS", SMALL ? 1 : 49.9, 0.1, 50);
const IDLE_SIGN_INS = SMALL ? 5 : 40;
const FORMATS = ["png", "jpeg", "webp", "gif"];
const TARGET = { peakMb: 512, backWithinMb: 50, signInRatio: 2 };
const DATABASE = `bench_uploads_${randomBytes(3).toString("hex")}`;
/**
 * The allocator settings the app runs under, each as the environment that chooses it: glibc's malloc as it comes,
 * with two arenas, jemalloc with its defaults, and `app`: what the start scripts give it (app_malloc_env in
 * scripts/lib.sh; jemalloc with a purging background thread where it is installed), read from there.
 */
function appMallocEnv() {
  const env = { ...process.env };
  for (const name of ["LD_PRELOAD", "MALLOC_CONF", "MALLOC_ARENA_MAX"]) delete env[name];
  const lines = execFileSync("bash", ["-c", "source scripts/lib.sh && app_malloc_env"], {
    cwd: ROOT,
    env,
    encoding: "utf8",
  });
  return Object.fromEntries(
    lines
      .trim()
      .split("\n")
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}
const ALLOCATORS = {
  glibc: {},
  arena2: { MALLOC_ARENA_MAX: "2" },
  jemalloc: { LD_PRELOAD: JEMALLOC },
  app: appMallocEnv(),
};
const VARIANTS = (process.env.BENCH_ALLOCATORS ?? "jemalloc,app")
  .split(",")
  .filter((name) => name in ALLOCATORS && (name !== "jemalloc" || existsSync(JEMALLOC)));
const PROBE = "scripts/bench/memory-probe.cjs";

/** Step 4 with `files` as photos, as the form posts it (multipart, Save without moving on). */
async function postPhotos(app, cookie, format, bytes, count) {
  const form = new FormData();
  form.append("intent", "stay");
  for (let i = 0; i < count; i++)
    form.append("photos", new Blob([bytes], { type: `image/${format}` }), `worst-${i}.${format}`);
  const { status, seconds } = await postMultipart(`${app.url}/intake-form/4`, form, { cookie });
  return { status, seconds };
}

/** Where the app's memory is, read by memory-probe.cjs inside it: as it stands, and after a full collection. */
async function probeMemory(app, file) {
  rmSync(file, { force: true });
  process.kill(app.pid, "SIGUSR2");
  for (let i = 0; i < 100; i++) {
    await sleep(100);
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, "utf8"));
      } catch {
        /* still being written */
      }
    }
  }
  throw new Error(`the app wrote no memory probe to ${file} in 10 s`);
}

const p95 = (values) => quantile(values, 0.95);
const mb = (n) => `${n.toFixed(0)} MB`;

/** The app under one allocator: its memory and sign-in figures while each format's post is processed. */
async function measure(variant, images) {
  const probeFile = `data/bench/memory-probe-${process.pid}.json`;
  const bench = await startBench({
    database: DATABASE,
    env: { ...ALLOCATORS[variant], BENCH_MEMORY_PROBE: probeFile },
    nodeArgs: ["--expose-gc", "--require", `./${PROBE}`],
  });
  const { app, db } = bench;
  let probe = null;
  try {
    await ensureBucket(bench.serviceEnv);
    await seedSignInAccounts(db);
    const customers = [];
    for (let i = 0; i < FORMATS.length; i++) customers.push(await customerAtStep4(bench));

    // The sign-ins from a process of their own (sign-in-probe.mjs): this one's event loop makes the posts.
    probe = signInProbe(app);
    for (let i = 0; i < 3; i++) await signIn(app); // warm up
    const idle = await probe.count(IDLE_SIGN_INS);
    await sleep(1_000);
    const startRss = app.rssMb();
    const startProbe = await probeMemory(app, probeFile);

    const rows = [];
    let peak = startRss; // over the current post
    let peakAll = startRss;
    const sampler = setInterval(() => {
      const rss = app.rssMb();
      peak = Math.max(peak, rss);
      peakAll = Math.max(peakAll, rss);
    }, 25);
    const busy = [];
    for (const [i, format] of FORMATS.entries()) {
      probe.start();
      peak = app.rssMb();
      let upload;
      let times;
      try {
        upload = await postPhotos(app, customers[i], format, images[format], IMAGES);
      } finally {
        times = await probe.stop();
      }
      busy.push(...times);
      rows.push({ format, bytes: images[format].length, ...upload, peak, signIns: times });
    }
    clearInterval(sampler);
    await sleep(10_000);
    const afterRss = app.rssMb();
    const afterProbe = await probeMemory(app, probeFile);
    return { variant, rows, idle, busy, startRss, peakAll, afterRss, startProbe, afterProbe };
  } finally {
    probe?.close();
    await bench.stop();
  }
}

function report(r) {
  const idleP95 = p95(r.idle);
  const busyP95 = p95(r.busy);
  console.log(`\n## ${r.variant} (${JSON.stringify(ALLOCATORS[r.variant])})`);
  console.log("format | one file | post time | answer | peak RSS | sign-ins meanwhile | sign-in p95 meanwhile");
  for (const row of r.rows)
    console.log(
      `${row.format} | ${(row.bytes / 1024).toFixed(0)} KB | ${row.seconds.toFixed(1)} s | ${row.status} | ${mb(row.peak)} | ${row.signIns.length} | ${p95(row.signIns).toFixed(0)} ms`,
    );
  console.log(`RSS at start ${mb(r.startRss)}, peak ${mb(r.peakAll)}, 10 s after the last post ${mb(r.afterRss)}`);
  const where = ({ rss, anon, file, heapUsed, heapTotal, external, arrayBuffers }) =>
    `RSS ${mb(rss)} (anonymous ${mb(anon)}, files ${mb(file)}), V8 heap used ${mb(heapUsed)} of ${mb(heapTotal)}, external ${mb(external)} (array buffers ${mb(arrayBuffers)})`;
  for (const [when, probe] of [
    ["at start", r.startProbe],
    ["after", r.afterProbe],
  ])
    console.log(`${when}: ${where(probe.before)}; after a full GC: ${where(probe.afterGc)}`);
  console.log(
    `sign-in p95: idle ${idleP95.toFixed(0)} ms (${r.idle.length}), during the posts ${busyP95.toFixed(0)} ms (${r.busy.length})`,
  );
  const checks = [
    [`peak RSS ${mb(r.peakAll)} < ${TARGET.peakMb} MB`, r.peakAll < TARGET.peakMb],
    [
      `RSS after within ${TARGET.backWithinMb} MB of start (${mb(r.afterRss - r.startRss)})`,
      r.afterRss - r.startRss <= TARGET.backWithinMb,
    ],
    [`sign-in p95 within ${TARGET.signInRatio}x idle (${(busyP95 / idleP95).toFixed(2)}x)`, busyP95 <= 2 * idleP95],
    ["every post answered 303", r.rows.every((row) => row.status === 303)],
  ];
  for (const [what, ok] of checks) console.log(`${ok ? "meets" : "MISSES"}: ${what}`);
}

async function main() {
  say(`making the images (${MEGAPIXELS} MP, ${IMAGES} per format)...`);
  const made = performance.now();
  const images = await worstImages(MEGAPIXELS);
  const madeSeconds = (performance.now() - made) / 1000;
  console.log(`# Image uploads under attack (${SMALL ? "--small, " : ""}${machine()})`);
  console.log(
    `${IMAGES} images per post, ${images.width} x ${images.height} px (${MEGAPIXELS} MP); made in ${madeSeconds.toFixed(0)} s; allocators in turn: ${VARIANTS.join(", ")}`,
  );
  for (const variant of VARIANTS) {
    say(`the app under ${variant}...`);
    report(await measure(variant, images));
    console.log(`(load average now ${machine().split("load ")[1]})`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
