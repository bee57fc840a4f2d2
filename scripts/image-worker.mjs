// The image worker: decodes each uploaded image and writes it out again, apart from the app (issue 35 item 4).
// app/server/image-worker.server.ts starts it, sends it one job at a time over IPC and says what each job is
// (the decoding options, the size and format to write, the preview's); this file only carries them out.
// It runs at the lowest CPU priority, on one libvips thread, caching nothing: whenever the app (sign-ins, pages)
// or the database wants a core, the scheduler gives it to them first, so a stream of 50-megapixel decodes
// slows uploads, not everyone else. It ends with the app: its IPC channel closes when the app exits, however
// the app was stopped.
import { setPriority } from "node:os";
import sharp from "sharp";

setPriority(19);
sharp.cache(false);
sharp.concurrency(1);

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
  let answer;
  try {
    answer = { id, image: await clean(job) };
  } catch {
    answer = { id, unreadable: true }; // not an image, truncated, or damaged
  }
  if (process.connected) process.send(answer);
});
