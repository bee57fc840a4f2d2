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
/**
 * The most an upload's decoded size (width x height x channels, from its header) may be, as a multiple of its
 * size in bytes. PNG's compression cannot pass about 1,000 times, and a photo is tens of times; a flat lossless
 * WebP of 50 megapixels is 2 KB (76,000 times) and a GIF bomb of 49 megapixels 33 KB (4,400 times), each costing
 * seconds of decoding, so they are refused before it.
 */
export const MAX_COMPRESSION_RATIO = 2_000;
/**
 * The pixels decoded per intake link and per client address in an hour, charged before decoding in units of
 * `unitMegapixels` (an image of 1 pixel costs one unit). A customer's step 4 is 12 photos of up to 48 MP and a
 * logo, about 600 MP: a link may have that decoded about twice an hour (decoding costs about 0.1 s of CPU per
 * megapixel here, so at most about 100 s of CPU per link per hour), and an address a few links' worth.
 */
export const IMAGE_BUDGET = { unitMegapixels: 5, linkMegapixels: 1_000, addressMegapixels: 2_000 } as const;
/** How an over-budget refusal ends, so the answer can say 429 (isOverBudget). */
const OVER_BUDGET_TAIL = "Please add it again in an hour, or continue without it for now.";

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
/**
 * Why an image was refused: it does not decode, it has more pixels than MAX_INPUT_PIXELS, it is compressed past
 * MAX_COMPRESSION_RATIO, or the budget of pixels decoded for its sender is used up (`spend` said no).
 */
export type ImageRefusal =
  | { refused: "unreadable" }
  | { refused: "too-many-pixels"; megapixels: number }
  | { refused: "too-compressed"; megapixels: number; kilobytes: number }
  | { refused: "over-budget" };
/** Charges an image's pixels, before they are decoded, to whoever sent it: false when their budget is used up. */
export type PixelBudget = (pixels: number) => Promise<boolean>;

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
export async function cleanImage(
  bytes: Uint8Array,
  contentType: string,
  spend: PixelBudget,
): Promise<CleanImage | ImageRefusal> {
  if (contentType === "image/svg+xml") return { body: bytes, contentType, thumb: null };
  const out = ENCODE[contentType];
  if (!out) return { refused: "unreadable" };
  // The header alone says how many pixels the image claims; refuse before decoding any of them.
  let header: { width?: number; height?: number; channels?: number };
  try {
    header = await sharp(bytes, { ...DECODE, limitInputPixels: false }).metadata();
  } catch {
    return { refused: "unreadable" };
  }
  const { width = 0, height = 0, channels = 4 } = header;
  const pixels = width * height;
  const megapixels = Math.ceil(pixels / 1_000_000);
  if (pixels > MAX_INPUT_PIXELS) return { refused: "too-many-pixels", megapixels };
  if (pixels * channels > bytes.byteLength * MAX_COMPRESSION_RATIO)
    return { refused: "too-compressed", megapixels, kilobytes: Math.ceil(bytes.byteLength / 1024) };
  if (!(await spend(pixels))) return { refused: "over-budget" };
  return oneAtATime(async () => {
    try {
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
  switch (refusal.refused) {
    case "too-many-pixels":
      return `${label} is ${refusal.megapixels} megapixels; images of up to ${MAX_INPUT_MEGAPIXELS} megapixels are accepted. Please choose a smaller copy.`;
    case "too-compressed":
      return `${label} was not opened: it unpacks from ${refusal.kilobytes} KB to ${refusal.megapixels} megapixels, far more than any photo or logo does. Please choose another copy of it (saved as an ordinary PNG or JPG).`;
    case "over-budget":
      return `${label} was not added: we process up to ${IMAGE_BUDGET.linkMegapixels.toLocaleString("en-GB")} megapixels of images an hour for each intake form, and this hour's are used up. ${OVER_BUDGET_TAIL}`;
    default:
      return `${label} could not be read as an image (it may be damaged). Please choose another file.`;
  }
}

/** Whether any of these file problems is an image refused for the hour's budget (the answer is then 429). */
export const isOverBudget = (problems: string[]) => problems.some((problem) => problem.endsWith(OVER_BUDGET_TAIL));
