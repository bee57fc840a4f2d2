import sharp, { type Sharp } from "sharp";

/** Longest side of the web-sized copy used for previews (a few tens of KB on a satellite link). */
export const THUMB_MAX_PX = 480;
/**
 * Longest side of the stored copy: wider than a 4K screen, so nothing a website shows loses detail, and it
 * bounds the work of writing an image out again (a 48 MP photo is stored at 4096 x 3072).
 */
export const STORED_MAX_PX = 4096;
/**
 * The most pixels an upload may have. Today's phones take photos of up to 48 MP (8064 x 6048 = 48.8 million
 * pixels; 50 MP sensors give 8160 x 6120), so 50 million lets every real photo in and refuses, from its header
 * and before any decoding, the images made to exhaust the server (a 33 KB GIF can claim 7000 x 7000 or more).
 */
export const MAX_INPUT_PIXELS = 50_000_000;
export const MAX_INPUT_MEGAPIXELS = MAX_INPUT_PIXELS / 1_000_000;

// One image at a time per process, each on one libvips thread, with nothing cached between images: an upload
// never holds more than one decoded image, and sign-ins and pages keep the other core.
sharp.cache(false);
sharp.concurrency(1);

export type CleanImage = {
  body: Uint8Array;
  contentType: string;
  thumb: Uint8Array | null;
  width?: number;
  height?: number;
};
/** Why an image was refused: it does not decode, or it has more pixels than MAX_INPUT_PIXELS. */
export type ImageRefusal = { refused: "unreadable" } | { refused: "too-many-pixels"; megapixels: number };

/**
 * How each accepted type is written out again, and as what. A GIF keeps only its first frame, so it is stored as
 * a PNG: lossless where writing a GIF again would quantise its colours once more, and at 50 megapixels writing the
 * PNG takes about 90 MB less memory than the GIF encoder's palette search (measured: docs/reliability.md).
 */
const ENCODE: Record<string, { as: string; encode: (image: Sharp) => Sharp }> = {
  "image/png": { as: "image/png", encode: (image) => image.png() },
  "image/jpeg": { as: "image/jpeg", encode: (image) => image.jpeg({ quality: 88, mozjpeg: true }) },
  "image/webp": { as: "image/webp", encode: (image) => image.webp({ quality: 88 }) },
  "image/gif": { as: "image/png", encode: (image) => image.png() },
};

/**
 * The decoding options for every upload: the first frame only (an animated GIF or WebP is stored as its first
 * picture; every further frame would multiply the work), the pixel cap, and a refusal of damaged data.
 */
const DECODE = { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS, pages: 1, animated: false } as const;

let queue: Promise<unknown> = Promise.resolve();
/** Runs `work` after every image queued before it (one image at a time per process). */
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Decodes an uploaded raster image for real and writes it out again: what does
 * not decode is refused, and nothing of the original's metadata survives
 * (phone photos carry GPS positions). The EXIF orientation is applied first, so
 * the cleaned image still stands upright; it is stored at most STORED_MAX_PX on
 * its longest side, shrunk while it loads where the format allows (JPEG and WebP
 * decode at 1/2, 1/4 or 1/8 size directly). Also makes the small WebP copy for
 * previews. SVG is not decoded here: it is stored as sent and served sandboxed.
 */
export async function cleanImage(bytes: Uint8Array, contentType: string): Promise<CleanImage | ImageRefusal> {
  if (contentType === "image/svg+xml") return { body: bytes, contentType, thumb: null };
  const out = ENCODE[contentType];
  if (!out) return { refused: "unreadable" };
  return oneAtATime(async () => {
    try {
      // The header alone says how many pixels the image claims; refuse before decoding any of them.
      const { width = 0, height = 0 } = await sharp(bytes, { ...DECODE, limitInputPixels: false }).metadata();
      if (width * height > MAX_INPUT_PIXELS)
        return { refused: "too-many-pixels", megapixels: Math.ceil((width * height) / 1_000_000) } as const;
      const { data, info } = await out
        .encode(
          sharp(bytes, DECODE)
            .rotate()
            .resize({ width: STORED_MAX_PX, height: STORED_MAX_PX, fit: "inside", withoutEnlargement: true }),
        )
        .toBuffer({ resolveWithObject: true });
      const thumb = await sharp(data, DECODE)
        .resize({ width: THUMB_MAX_PX, height: THUMB_MAX_PX, fit: "inside", withoutEnlargement: true })
        .webp({ quality: 72 })
        .toBuffer();
      return {
        body: new Uint8Array(data),
        contentType: out.as,
        thumb: new Uint8Array(thumb),
        width: info.width,
        height: info.height,
      };
    } catch {
      return { refused: "unreadable" } as const; // not an image, truncated, or damaged
    }
  });
}

/** The message for a refused image, naming its file. */
export function imageRefusalMessage(label: string, refusal: ImageRefusal): string {
  return refusal.refused === "too-many-pixels"
    ? `${label} is ${refusal.megapixels} megapixels; images of up to ${MAX_INPUT_MEGAPIXELS} megapixels are accepted. Please choose a smaller copy.`
    : `${label} could not be read as an image (it may be damaged). Please choose another file.`;
}
