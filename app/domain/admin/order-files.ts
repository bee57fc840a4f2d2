import type { StoredPhoto, StoredSubmission } from "../intake/data";
import { PHOTO_CROPS, PHOTO_PLACEMENTS, PHOTO_PRIORITIES, type Option } from "../intake/options";

/**
 * The customer's files as the builder gets them on the admin order page: the logo and every photo
 * (full size, by their storage keys, which only the server's records give), each photo with its
 * details, and the names they carry in a download.
 */
export type OrderFile = {
  kind: "logo" | "photo";
  /** The full-size file's storage key. */
  key: string;
  /** The small copy's key, for the thumbnail (the full size when there is none). */
  thumbKey: string;
  /** Its name inside the archive, and when downloaded alone: "logo.png", "photos/01-shop-front.jpg". */
  name: string;
  /** What the admin's history calls it ("Logo", "Photo 2"): never the customer's own file name. */
  label: string;
};
export type OrderPhoto = OrderFile & { id: string; altText: string; placement: string; crop: string; priority: string };

const extension = (key: string) => /\.([a-z0-9]+)$/.exec(key)?.[1] ?? "bin";

/** Text safe in a file name on every system: letters, digits, dashes; at most 60 characters. */
export function fileSlug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
}

/** A photo's name in a download: its place in the list, then the customer's own file name (made safe). */
function photoName(p: StoredPhoto, index: number): string {
  const stem = fileSlug((p.fileName ?? "").replace(/\.[^.]*$/, "")) || "photo";
  return `photos/${String(index + 1).padStart(2, "0")}-${stem}.${extension(p.key)}`;
}

/** The logo (when it was uploaded, not linked) and the photos, in the customer's order. */
export function orderFiles(doc: Pick<StoredSubmission, "logo_key" | "logo_thumb_key" | "photo_metadata"> | null): {
  logo: OrderFile | null;
  photos: OrderPhoto[];
} {
  const logo: OrderFile | null = doc?.logo_key
    ? {
        kind: "logo",
        key: doc.logo_key,
        thumbKey: doc.logo_thumb_key ?? doc.logo_key,
        name: `logo.${extension(doc.logo_key)}`,
        label: "Logo",
      }
    : null;
  const photos = (doc?.photo_metadata ?? []).map((p, i): OrderPhoto => ({
    kind: "photo",
    id: p.id,
    key: p.key,
    thumbKey: p.thumbKey ?? p.key,
    name: photoName(p, i),
    label: `Photo ${i + 1}`,
    altText: p.altText ?? "",
    placement: p.placement,
    crop: p.crop,
    priority: p.priority,
  }));
  return { logo, photos };
}

/** The file of an order a key names, or null when the key is not one of this order's files. */
export function fileOfOrder(files: ReturnType<typeof orderFiles>, key: string): OrderFile | null {
  return [...(files.logo ? [files.logo] : []), ...files.photos].find((f) => f.key === key) ?? null;
}

/** The archive's name: the business's, else the order's ("acme-bakery-files.zip", "order-1a2b3c4d-files.zip"). */
export function archiveName(businessName: string | null | undefined, shortId: string): string {
  return `${fileSlug(businessName ?? "") || `order-${shortId}`}-files.zip`;
}

/** A stored choice as the intake form showed it ("hero" -> "Top of the home page (hero)"). */
const label = (options: Option[], value: string) => options.find((o) => o.value === value)?.label ?? value;
export const photoDetailLabels = (p: Pick<OrderPhoto, "placement" | "crop" | "priority">) => ({
  placement: label(PHOTO_PLACEMENTS, p.placement),
  crop: label(PHOTO_CROPS, p.crop),
  priority: label(PHOTO_PRIORITIES, p.priority),
});

export const ORDER_FILES_MESSAGES = {
  none: "The customer has not uploaded a logo or photos.",
  notFound: "That file is not one of this order's files.",
  linkedLogo: "The logo was given as a link, not uploaded:",
} as const;
