import { randomBytes } from "node:crypto";
import { HOUR_MS } from "~/domain/dates";
import { MAX_PHOTOS, type ArrivedFiles, type StoredUpload } from "~/domain/intake/branding";
import type { StoredSubmission } from "~/domain/intake/data";
import { absoluteUrl } from "~/server/env.server";
import { FILE_OVER_COUNT, FILE_TOO_LARGE, readForm, readMultipartForm } from "~/server/forms.server";
import { cleanImage, IMAGE_BUDGET, imageRefusalMessage, type PixelBudget } from "~/server/images.server";
import { errorMessage, log } from "~/server/log.server";
import { clientAddress, consumeRateLimit, type RateLimit } from "~/server/rate-limit.server";
import { getStorage } from "~/server/storage.server";

/** Upload limits, stated on the page and enforced here. */
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
export const PHOTO_MAX_BYTES = 8 * 1024 * 1024;

export const UPLOAD_LIMITS_TEXT = {
  logo: "One image: PNG, JPG or SVG, up to 5 MB.",
  photos: `Up to ${MAX_PHOTOS} photos: PNG, JPG, WebP or GIF, up to 8 MB each.`,
};

type Kind = "logo" | "photos";
const LIMIT: Record<Kind, number> = { logo: LOGO_MAX_BYTES, photos: PHOTO_MAX_BYTES };
const ALLOWED: Record<Kind, string[]> = {
  logo: ["image/png", "image/jpeg", "image/svg+xml"],
  photos: ["image/png", "image/jpeg", "image/webp", "image/gif"],
};
const EXTENSION: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/svg+xml": "svg",
  "image/webp": "webp",
  "image/gif": "gif",
};

/** What a file really is, from its own first bytes (never from its name or the browser's word). */
export function sniffImageType(bytes: Uint8Array): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.slice(8, 12)) === "WEBP") return "image/webp";
  const head = new TextDecoder().decode(bytes.slice(0, 1024)).trimStart().toLowerCase();
  if ((head.startsWith("<svg") || head.startsWith("<?xml")) && head.includes("<svg")) return "image/svg+xml";
  return null;
}

/**
 * A step without files: the longest a customer can legitimately fill in is
 * step 10 (50 staff bios of up to 3,200 characters), about 160,000 characters
 * before percent-encoding; 1 MB leaves room for non-Latin text. Not 64 KB:
 * nothing a customer types may be refused for its size when the form allows it.
 */
const STEP_TEXT_MAX_BYTES = 1024 * 1024;

/**
 * Everything step 4 may carry in one post: a logo, the photo cap, and the text
 * fields. Past it the post is refused (413) while it streams.
 */
export const STEP_FORM_MAX_BYTES = LOGO_MAX_BYTES + MAX_PHOTOS * PHOTO_MAX_BYTES + STEP_TEXT_MAX_BYTES;

/**
 * A step's form data: multipart (with files) or urlencoded, read through the
 * bounded form reader. At most one logo and MAX_PHOTOS photos are kept in
 * memory; a file over its size or beyond the count arrives marked, so the
 * step's other fields are never lost.
 */
export async function readStepForm(request: Request): Promise<FormData> {
  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    return readMultipartForm(request, {
      maxBytes: STEP_FORM_MAX_BYTES,
      files: {
        logo: { maxBytes: LOGO_MAX_BYTES, maxCount: 1 },
        photos: { maxBytes: PHOTO_MAX_BYTES, maxCount: MAX_PHOTOS },
      },
      tooLargeHint: `Please go back and choose fewer or smaller files. ${UPLOAD_LIMITS_TEXT.photos}`,
    });
  }
  return readForm(request, { maxBytes: STEP_TEXT_MAX_BYTES });
}

/**
 * One file sent on its own (the step-4 page with JavaScript, /intake-form/upload):
 * multipart only, one logo or one photo, and the same per-file limits as the
 * step's post. A body past one photo's limit and a little room is refused (413)
 * while it streams.
 */
export async function readOneUpload(request: Request): Promise<FormData> {
  if (!(request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data"))
    throw new Response("Please send the file as a form upload.", { status: 415 });
  return readMultipartForm(request, {
    maxBytes: PHOTO_MAX_BYTES + 1024 * 1024,
    maxFields: 4,
    files: { logo: { maxBytes: LOGO_MAX_BYTES, maxCount: 1 }, photos: { maxBytes: PHOTO_MAX_BYTES, maxCount: 1 } },
    tooLargeHint: `Please choose a smaller file. ${UPLOAD_LIMITS_TEXT.photos}`,
  });
}

type UploadOutcome = { stored: StoredUpload[]; errors: string[] };

/** Who sends files: the intake link's order and the client's address (clientAddress), each with its budget of pixels. */
export type Uploader = { orderId: string; address: string };
/** The uploader of a request made with an intake link (its order). */
export const uploaderOf = (request: Request, orderId: string): Uploader => ({
  orderId,
  address: clientAddress(request),
});

const slots = (megapixels: number) => megapixels / IMAGE_BUDGET.unitMegapixels;
/** The hourly budgets of decoded pixels (IMAGE_BUDGET), in slots of IMAGE_BUDGET.unitMegapixels. */
export const PIXEL_LIMITS: Record<"link" | "address", RateLimit> = {
  link: { name: "image-pixels-link", max: slots(IMAGE_BUDGET.linkMegapixels), windowMs: HOUR_MS },
  address: { name: "image-pixels-address", max: slots(IMAGE_BUDGET.addressMegapixels), windowMs: HOUR_MS },
};

/**
 * The hour's budget of decoded pixels of one uploader: an image takes one numbered slot per unit of its pixels
 * (rate-limit.server.ts: inserts under unique ids, so racing uploads never pass it), from the link's and then the
 * address's budget.
 */
const pixelBudget =
  (uploader: Uploader): PixelBudget =>
  async (pixels) => {
    const units = Math.max(1, Math.ceil(pixels / (IMAGE_BUDGET.unitMegapixels * 1_000_000)));
    return (
      (await consumeRateLimit(PIXEL_LIMITS.link, uploader.orderId, new Date(), units)) &&
      (await consumeRateLimit(PIXEL_LIMITS.address, uploader.address, new Date(), units))
    );
  };

/** The path a stored object is served from (/uploads/…, to its order's customer and admins). */
export const uploadPath = (key: string) => `/uploads/${key}`;

/**
 * Checks and stores the files of one field under keys the server makes:
 * logos/{orderId}/{id}.{ext} or photos/{orderId}/{id}.{ext}, plus {id}.thumb.webp,
 * the small copy for previews. Each image is decoded and written out again
 * (cleanImage): what does not decode is refused, metadata never stored; what
 * is past the uploader's hourly budget of pixels is refused before decoding.
 */
export async function storeUploads(
  uploader: Uploader,
  kind: Kind,
  files: FormDataEntryValue[],
  room = Infinity,
): Promise<UploadOutcome> {
  const { orderId } = uploader;
  const spend = pixelBudget(uploader);
  const outcome: UploadOutcome = { stored: [], errors: [] };
  const prefix = kind === "logo" ? "logos" : "photos";
  for (const entry of files) {
    if (!(entry instanceof File) || !entry.name) continue;
    const label = entry.name.slice(0, 80);
    if (entry.type === FILE_TOO_LARGE) {
      outcome.errors.push(`${label} is larger than ${LIMIT[kind] / 1024 / 1024} MB.`);
      continue;
    }
    if (outcome.stored.length >= room || entry.type === FILE_OVER_COUNT) {
      outcome.errors.push(`${label} was not added: at most ${MAX_PHOTOS} photos.`);
      continue;
    }
    const bytes = new Uint8Array(await entry.arrayBuffer());
    const type = sniffImageType(bytes);
    if (!type || !ALLOWED[kind].includes(type)) {
      outcome.errors.push(`${label} is not a ${kind === "logo" ? "PNG, JPG or SVG" : "PNG, JPG, WebP or GIF"} image.`);
      continue;
    }
    const image = await cleanImage(bytes, type, spend);
    if ("refused" in image) {
      outcome.errors.push(imageRefusalMessage(label, image));
      continue;
    }
    const id = randomBytes(12).toString("hex");
    const key = `${prefix}/${orderId}/${id}.${EXTENSION[image.contentType]}`;
    const thumbKey = image.thumb ? `${prefix}/${orderId}/${id}.thumb.webp` : null;
    try {
      await getStorage().put(key, image.body, image.contentType);
      if (thumbKey && image.thumb) await getStorage().put(thumbKey, image.thumb, "image/webp");
    } catch (error) {
      log("error", "upload.store_failed", { order_id: orderId, kind, reason: errorMessage(error) });
      outcome.errors.push(`${label} could not be saved just now. Please try again, or continue without it.`);
      continue;
    }
    outcome.stored.push({ id, key, thumbKey, url: absoluteUrl(uploadPath(key)), fileName: label });
  }
  return outcome;
}

/** Deletes stored uploads (and their thumbnails) no record names any more; a failure is logged, never thrown. */
export async function deleteUploads(keys: (string | null | undefined)[]) {
  for (const key of keys) {
    if (!key) continue;
    await getStorage()
      .delete(key)
      .catch((error) => log("warn", "upload.delete_failed", { key, reason: errorMessage(error) }));
  }
}

/** Checks and stores every file that arrives with a post, whatever else the post says. */
export async function storeArrivedFiles(
  uploader: Uploader,
  form: FormData,
  before: StoredSubmission | null,
): Promise<ArrivedFiles> {
  const logo = await storeUploads(uploader, "logo", form.getAll("logo").slice(0, 1));
  const room = MAX_PHOTOS - (before?.photo_metadata?.length ?? 0);
  const photos = await storeUploads(uploader, "photos", form.getAll("photos"), Math.max(0, room));
  return { logo: logo.stored[0], photos: photos.stored, problems: { logo: logo.errors, photos: photos.errors } };
}

/** What the step-4 page shows of the stored files: previews by path (the small copies), never storage keys. */
export function brandingPreviews(doc: StoredSubmission | null) {
  const logoKey = doc?.logo_thumb_key ?? doc?.logo_key;
  const logoUrl = logoKey ? uploadPath(logoKey) : doc?.logo_url;
  return {
    logo: logoUrl ? { url: logoUrl, uploaded: Boolean(doc?.logo_key) } : null,
    photos: (doc?.photo_metadata ?? []).map((p) => ({
      id: p.id,
      url: uploadPath(p.thumbKey ?? p.key),
      fileName: p.fileName ?? "",
    })),
  };
}
