// The uploads an attacker would choose, shared by the upload benchmark and the intake
// tests: images that are tiny on the wire and claim as many pixels as the app accepts, in every photo
// format step 4 takes. Nothing here reads the app's code; sharp makes the raster ones.
import sharp from "sharp";

/**
 * GIF's LZW code stream for `count` pixels all of colour index 0 (RFC-style GIF89a encoder: clear code first,
 * code width growing to 12 bits, a clear code whenever the table fills).
 */
function lzwOfZeros(count, minCodeSize) {
  const clear = 1 << minCodeSize;
  const eoi = clear + 1;
  const out = [];
  let bits = 0;
  let held = 0;
  let width = minCodeSize + 1;
  const emit = (code) => {
    bits |= code << held;
    held += width;
    while (held >= 8) {
      out.push(bits & 0xff);
      bits >>>= 8;
      held -= 8;
    }
  };
  // The table only ever holds runs of zeros: entry n (from eoi + 1) is one zero longer than the one before.
  let next = eoi + 1;
  let longest = 1; // the longest run the table holds (a single zero is the literal code 0)
  emit(clear);
  let left = count;
  while (left > 0) {
    const run = Math.min(left, longest);
    emit(run === 1 ? 0 : eoi + run - 1);
    left -= run;
    if (left === 0) break;
    if (next === 4096) {
      emit(clear);
      next = eoi + 1;
      width = minCodeSize + 1;
      longest = 1;
    } else {
      if (next >= 1 << width) width++;
      next++;
      longest = run + 1;
    }
  }
  emit(eoi);
  if (held > 0) out.push(bits & 0xff);
  return out;
}

/**
 * A GIF of `frames` frames of width x height, each all one colour: about 35 KB for 7000 x 7000 (the issue's
 * 33 KB GIF that took 24.5 s to process), and a decoder must expand every frame to the whole size.
 */
export function gifBomb(width, height, frames = 1) {
  const le = (n) => [n & 0xff, n >> 8];
  const bytes = [...Buffer.from("GIF89a"), ...le(width), ...le(height), 0x80, 0, 0, 0x33, 0x66, 0x99, 255, 255, 255];
  if (frames > 1) bytes.push(0x21, 0xff, 0x0b, ...Buffer.from("NETSCAPE2.0"), 3, 1, 0, 0, 0);
  const data = lzwOfZeros(width * height, 2);
  for (let f = 0; f < frames; f++) {
    bytes.push(0x21, 0xf9, 4, 0, 10, 0, 0, 0); // 0.1 s a frame
    bytes.push(0x2c, 0, 0, 0, 0, ...le(width), ...le(height), 0, 2);
    for (let i = 0; i < data.length; i += 255) {
      const block = data.slice(i, i + 255);
      bytes.push(block.length, ...block);
    }
    bytes.push(0);
  }
  bytes.push(0x3b);
  return Buffer.from(bytes);
}

/** A GIF with `size` bytes of comment before its trailer (a comment extension, in blocks of 255): the same picture, more bytes. */
export function withComment(gif, size) {
  const blocks = [0x21, 0xfe];
  for (let left = size; left > 0; left -= 255)
    blocks.push(Math.min(255, left), ...Array(Math.min(255, left)).fill(0x20));
  return Buffer.concat([gif.subarray(0, -1), Buffer.from([...blocks, 0, 0x3b])]);
}

/**
 * The most an upload's decoded size (width x height x channels) may be as a multiple of its bytes before the app
 * refuses it undecoded (MAX_COMPRESSION_RATIO in app/server/images.server.ts, which this folder does not import).
 */
export const APP_MAX_COMPRESSION_RATIO = 2_000;

/** An image's width and height at `megapixels`, 4:3. */
export function sizeOf(megapixels) {
  const width = Math.round(Math.sqrt((megapixels * 1_000_000 * 4) / 3));
  return { width, height: Math.floor((megapixels * 1_000_000) / width) };
}

/** The decompression bomb an attacker sends to one intake link: a lossless WebP of `megapixels`, all one colour, about 2 KB at 50 MP. */
export function flatWebp(megapixels) {
  const { width, height } = sizeOf(megapixels);
  return sharp({ create: { width, height, channels: 3, background: "#3366aa" } })
    .webp({ lossless: true })
    .toBuffer();
}

/**
 * The worst case of each photo format at `megapixels` (4:3) that the app still decodes, as small as the format
 * makes it: a PNG interlaced (a decoder cannot stream it), a progressive JPEG (all its coefficients are held), a
 * lossless WebP and a GIF bomb of two frames (padded with a comment to just within APP_MAX_COMPRESSION_RATIO:
 * the bomb alone unpacks to more). A soft gradient, so it is a picture, not one colour. `formats` picks some.
 */
export async function worstImages(megapixels, formats = ["png", "jpeg", "webp", "gif"]) {
  const { width, height } = sizeOf(megapixels);
  const gradient = () =>
    sharp({ create: { width: 2, height: 2, channels: 3, background: "#000" } })
      .raw()
      .toBuffer()
      .then((raw) => {
        raw.set([40, 90, 160, 200, 120, 60, 30, 160, 90, 240, 220, 200]);
        return sharp(raw, { raw: { width: 2, height: 2, channels: 3 } }).resize(width, height, { kernel: "linear" });
      });
  const make = {
    png: async () => (await gradient()).png({ progressive: true, compressionLevel: 9 }).toBuffer(),
    jpeg: async () => (await gradient()).jpeg({ quality: 90, progressive: true }).toBuffer(),
    webp: async () => (await gradient()).webp({ lossless: true }).toBuffer(),
    gif: async () => {
      const bomb = gifBomb(width, height, 2);
      // Decoded as RGB (3 channels): the smallest size the ratio lets through, and a little more.
      const least = Math.ceil((width * height * 3) / APP_MAX_COMPRESSION_RATIO) + 1024;
      return bomb.length >= least ? bomb : withComment(bomb, least - bomb.length);
    },
  };
  const images = { width, height };
  for (const format of formats) images[format] = await make[format]();
  return images;
}
