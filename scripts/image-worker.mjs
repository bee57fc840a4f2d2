// The image worker: decodes each uploaded image and writes it out again, apart from the app.
// app/server/image-worker.server.ts starts it, sends it one job at a time over IPC and says what each job is
// (the decoding options, the size and format to write, the preview's); this file only carries them out.
// It runs at the lowest CPU priority, on one libvips thread, caching nothing: whenever the app (sign-ins, pages)
// or the database wants a core, the scheduler gives it to them first, so a stream of 50-megapixel decodes
// slows uploads, not everyone else. It ends with the app: its IPC channel closes when the app exits, however
// the app was stopped.
import { readdirSync } from "node:fs";
import { setPriority } from "node:os";
import sharp from "sharp";

/**
 * Lowers every thread of this process to the lowest priority. Linux keeps a nice value per thread, and a thread
 * takes its creator's: `setPriority(19)` alone lowered only the main thread, while the decoding ran at full
 * priority on libvips' and libuv's threads, made before it (at start and at `import sharp`). Run again before each
 * job, for a thread made since by one that was still at 0. Elsewhere than Linux, the process's priority.
 */
function lowestPriority() {
  let threads = [0];
  try {
    threads = readdirSync("/proc/self/task").map(Number);
  } catch {
    // no /proc: setpriority names the whole process there
  }
  for (const thread of threads) {
    try {
      setPriority(thread, 19);
    } catch {
      // ended meanwhile
    }
  }
}

sharp.cache(false);
sharp.concurrency(1);
lowestPriority();

process.on("disconnect", () => process.exit(0));

const inside = (px) => ({ width: px, height: px, fit: "inside", withoutEnlargement: true });

/** The stored copy (upright, at most `maxPx` on its longest side, no metadata) and its small WebP preview. */
async function clean({ bytes, decode, maxPx, format, options, thumb }) {
  const { data, info } = await sharp(bytes, decode)
    .rotate()
    .resize(inside(maxPx))
    .toFormat(format, options)
    .toBuffer({ resolveWithObject: true });
  const small = await sharp(data, decode).resize(inside(thumb.maxPx)).webp({ quality: thumb.quality }).toBuffer();
  return { body: data, thumb: small, width: info.width, height: info.height };
}

process.on("message", async ({ id, job }) => {
  lowestPriority();
  let answer;
  try {
    answer = { id, image: await clean(job) };
  } catch {
    answer = { id, unreadable: true }; // not an image, truncated, or damaged
  }
  if (process.connected) process.send(answer);
});
