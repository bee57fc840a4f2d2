import sharp from "sharp";
import { inTurn } from "~/server/in-turn.server";
import { runInImageWorker, type WorkerJob } from "~/server/image-worker.server";

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
/** How an over-budget refusal ends, so the answer can say 429 (retryStatus). */
const OVER_BUDGET_TAIL = "Please add it again in an hour, or continue without it for now.";
/** How a refusal for a full line of images ends, so the answer can say 503 (retryStatus). */
const BUSY_TAIL = "Please add it again in a minute.";

// The app reads only headers here; decoding is the image worker's (image-worker.server.ts).
sharp.cache(false);

export type CleanImage = {
  body: Uint8Array;
  contentType: string;
  thumb: Uint8Array | null;
  width?: number;
  height?: number;
};
/**
 * Why an image was refused: it does not decode, it has more pixels than MAX_INPUT_PIXELS, it is compressed past
 * MAX_COMPRESSION_RATIO, the budget of pixels decoded for its sender is used up (`spend` said no), the line of
 * images waiting for the worker is full (`busy`), or the worker crashed or hung on it (`not-processed`).
 */
export type ImageRefusal =
  | { refused: "unreadable" }
  | { refused: "too-many-pixels"; megapixels: number }
  | { refused: "too-compressed"; megapixels: number; kilobytes: number }
  | { refused: "over-budget" }
  | { refused: "busy" }
  | { refused: "not-processed" };
/** Charges an image's pixels, before they are decoded, to whoever sent it: false when their budget is used up. */
export type PixelBudget = (pixels: number) => Promise<boolean>;

/**
 * How each accepted type is written out again, and as what (sharp's `toFormat`, in the image worker). A GIF keeps
 * only its first frame, so it is stored as a PNG: lossless where writing a GIF again would quantise its colours
 * once more, and at 50 megapixels writing the PNG takes about 90 MB less memory than the GIF encoder's palette
 * search (measured: docs/reliability.md).
 */
const ENCODE: Record<string, { as: string; format: WorkerJob["format"]; options: Record<string, unknown> }> = {
  "image/png": { as: "image/png", format: "png", options: {} },
  "image/jpeg": { as: "image/jpeg", format: "jpeg", options: { quality: 88, mozjpeg: true } },
  "image/webp": { as: "image/webp", format: "webp", options: { quality: 88 } },
  "image/gif": { as: "image/png", format: "png", options: {} },
};
/** The small copy for previews: a few tens of KB on a satellite link. */
const THUMB = { maxPx: THUMB_MAX_PX, quality: 72 };

/**
 * The decoding options for every upload: the first frame only (an animated GIF or WebP is stored as its first
 * picture; every further frame would multiply the work), the pixel cap, and a refusal of damaged data.
 */
const DECODE = { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS, pages: 1, animated: false } as const;

/**
 * The images waiting for the worker, across the whole app: one decoded at a time (so however many links upload at
 * once, decoding takes at most one core, and at the lowest priority), a few more in line, and the rest refused at
 * once (`busy`, answered 503: the page sends the file again shortly). A link sends at most two at a time
 * (routes/intake-form_.upload.ts), so one link never fills the line.
 */
const IMAGE_LINE = { key: "image-worker", running: 1, waiting: 8 } as const;
/**
 * How long the worker may take over one image before it counts as hung: 20 s, and 2 s more per megapixel (the
 * worst image it still decodes, a 50-megapixel interlaced PNG, takes about 5 s of one quiet core).
 */
const jobTimeoutMs = (pixels: number) => 20_000 + Math.ceil(pixels / 1_000_000) * 2_000;

/**
 * Decodes an uploaded raster image for real and writes it out again: what does
 * not decode is refused, and nothing of the original's metadata survives
 * (phone photos carry GPS positions). The EXIF orientation is applied first, so
 * the cleaned image still stands upright; it is stored at most STORED_MAX_PX on
 * its longest side, shrunk while it loads where the format allows (JPEG and WebP
 * decode at 1/2, 1/4 or 1/8 size directly). Also makes the small WebP copy for
 * previews. SVG is not decoded here: it is stored as sent and served sandboxed.
 * The header is read here; the decoding and writing happen in the image worker
 * (image-worker.server.ts), one image at a time across the app (IMAGE_LINE).
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
  const turn = await inTurn(IMAGE_LINE.key, IMAGE_LINE, async (): Promise<CleanImage | ImageRefusal> => {
    // Charged when its turn comes: an image refused as busy costs its sender nothing.
    if (!(await spend(pixels))) return { refused: "over-budget" };
    const job = { bytes, decode: DECODE, maxPx: STORED_MAX_PX, format: out.format, options: out.options, thumb: THUMB };
    const answer = await runInImageWorker(job, jobTimeoutMs(pixels));
    if ("failed" in answer) return { refused: "not-processed" };
    if ("unreadable" in answer) return { refused: "unreadable" };
    const { body, thumb, width, height } = answer.image;
    return { body, contentType: out.as, thumb, width, height };
  });
  return turn ? turn.value : { refused: "busy" };
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
    case "busy":
      return `${label} was not added: many images are being processed just now. ${BUSY_TAIL}`;
    case "not-processed":
      return `${label} could not be processed just now. Please try again, or continue without it.`;
    default:
      return `${label} could not be read as an image (it may be damaged). Please choose another file.`;
  }
}

/**
 * The status of an answer that carries these file problems, when one asks for a later try: 429 past the hour's
 * budget of pixels, 503 while the line of images is full (the page with JavaScript sends a 503'd file again).
 */
export function retryStatus(problems: string[]): 429 | 503 | null {
  if (problems.some((problem) => problem.endsWith(OVER_BUDGET_TAIL))) return 429;
  if (problems.some((problem) => problem.endsWith(BUSY_TAIL))) return 503;
  return null;
}
