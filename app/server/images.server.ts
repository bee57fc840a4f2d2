import sharp, { type Sharp } from "sharp";

/** Longest side of the web-sized copy used for previews (a few tens of KB on a satellite link). */
export const THUMB_MAX_PX = 480;
/** Refuses decompression bombs: no upload we accept needs more pixels than a 50-megapixel photo. */
const MAX_INPUT_PIXELS = 50_000_000;

export type CleanImage = {
  body: Uint8Array;
  contentType: string;
  thumb: Uint8Array | null;
  width?: number;
  height?: number;
};

const ENCODE: Record<string, (image: Sharp) => Sharp> = {
  "image/png": (image) => image.png(),
  "image/jpeg": (image) => image.jpeg({ quality: 88, mozjpeg: true }),
  "image/webp": (image) => image.webp({ quality: 88 }),
  "image/gif": (image) => image.gif(),
};

/**
 * Decodes an uploaded raster image for real and writes it out again: what does
 * not decode is refused (null), and nothing of the original's metadata survives
 * (phone photos carry GPS positions). Also makes the small WebP copy for previews.
 * The EXIF orientation is applied first, so the cleaned image still stands upright.
 * SVG is not decoded here: it is stored as sent and served sandboxed.
 */
export async function cleanImage(bytes: Uint8Array, contentType: string): Promise<CleanImage | null> {
  if (contentType === "image/svg+xml") return { body: bytes, contentType, thumb: null };
  const encode = ENCODE[contentType];
  if (!encode) return null;
  const options = {
    failOn: "error",
    limitInputPixels: MAX_INPUT_PIXELS,
    animated: contentType === "image/gif",
  } as const;
  try {
    const { data, info } = await encode(sharp(bytes, options).rotate()).toBuffer({ resolveWithObject: true });
    const thumb = await sharp(data, { ...options, animated: false })
      .resize({ width: THUMB_MAX_PX, height: THUMB_MAX_PX, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 72 })
      .toBuffer();
    return {
      body: new Uint8Array(data),
      contentType,
      thumb: new Uint8Array(thumb),
      width: info.width,
      height: info.pageHeight ?? info.height,
    };
  } catch {
    return null; // not an image, truncated, or too large to decode safely
  }
}
