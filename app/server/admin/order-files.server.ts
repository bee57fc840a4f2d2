import { Readable } from "node:stream";
import { ZipFile } from "yazl";
import { archiveName, fileOfOrder, orderFiles } from "~/domain/admin/order-files";
import { shortId } from "~/domain/orders";
import { uploadPath } from "../intake/uploads.server";
import { errorMessage, log } from "../log.server";
import type { Submission } from "../intake/draft.server";
import { IntakeSubmission } from "../models/index.server";
import { getStorage } from "../storage.server";
import { recordAdminAction, type Actor } from "./audit.server";

/** Files are sent as inert downloads: a sandboxing CSP means an SVG logo can never run script. */
const INERT = {
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "private, no-store",
};
const disposition = (kind: "inline" | "attachment", name: string) =>
  `${kind}; filename="${name.replace(/[^A-Za-z0-9._-]/g, "_")}"`;

async function filesOf(orderId: string) {
  const doc = await IntakeSubmission.findById(orderId, {
    business_name: 1,
    logo_key: 1,
    logo_thumb_key: 1,
    logo_url: 1,
    photo_metadata: 1,
  }).lean<Submission>();
  return { doc, files: orderFiles(doc) };
}

/** The order page's files card: thumbnails by path (the small copies), full size through the admin's own route. */
export function orderFilesView(orderId: string, doc: Submission | null) {
  const files = orderFiles(doc);
  const full = (key: string) => `/admin/orders/${orderId}/files/${key}`;
  return {
    logo: files.logo
      ? { thumb: uploadPath(files.logo.thumbKey), full: full(files.logo.key), name: files.logo.name }
      : null,
    linkedLogo: !files.logo && doc?.logo_url ? doc.logo_url : null,
    photos: files.photos.map((p) => ({ ...p, thumb: uploadPath(p.thumbKey), full: full(p.key) })),
    archive: files.logo || files.photos.length ? `/admin/orders/${orderId}/files.zip` : null,
  };
}

/** One full-size file of the order, streamed from storage, with its audit entry; null when the key is not the order's. */
export async function downloadOrderFile(input: { orderId: string; key: string; actor: Actor }) {
  const file = fileOfOrder((await filesOf(input.orderId)).files, input.key);
  const object = file ? await getStorage().open(file.key) : null;
  if (!file || !object) return null;
  await recordAdminAction(input.actor, "file.downloaded", { type: "order", id: input.orderId }, { file: file.label });
  return new Response(Readable.toWeb(object.body) as ReadableStream, {
    headers: {
      ...INERT,
      "Content-Type": object.contentType,
      "Content-Disposition": disposition("inline", file.name.replace(/^.*\//, "")),
    },
  });
}

/**
 * Every file of the order in one zip named after the business, streamed: each file is opened from
 * storage only when the archive reaches it and passed through as it arrives (stored, not compressed:
 * images are compressed already), so the archive is never whole in memory. With its audit entry.
 */
export async function downloadOrderArchive(input: { orderId: string; actor: Actor; signal?: AbortSignal }) {
  const { doc, files } = await filesOf(input.orderId);
  const all = [...(files.logo ? [files.logo] : []), ...files.photos];
  const zip = new ZipFile();
  for (const file of all)
    zip.addReadStreamLazy(file.name, { compress: false }, (done) => {
      getStorage()
        .open(file.key)
        .then((object) => done(object ? null : new Error(`missing ${file.key}`), object?.body as Readable))
        .catch((error: unknown) => done(error, undefined as unknown as Readable));
    });
  zip.end();
  const output = zip.outputStream as Readable;
  output.on("error", (error) =>
    log("error", "admin.archive_failed", { order_id: input.orderId, reason: errorMessage(error) }),
  );
  input.signal?.addEventListener("abort", () => output.destroy());
  const name = archiveName(doc?.business_name, shortId(input.orderId));
  await recordAdminAction(
    input.actor,
    "files.downloaded",
    { type: "order", id: input.orderId },
    { archive: name, files: all.length },
  );
  return new Response(Readable.toWeb(output) as ReadableStream, {
    headers: { ...INERT, "Content-Type": "application/zip", "Content-Disposition": disposition("attachment", name) },
  });
}
