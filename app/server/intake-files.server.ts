import type { IntakeValues, StoredPhoto, StoredSubmission } from "~/domain/intake/data";
import { SPECIAL_STEPS } from "~/domain/intake/steps";
import { saveFields, saveStep, type Submission } from "./intake.server";
import { deleteUploads, MAX_PHOTOS, storeUploads, uploadPath } from "./uploads.server";

/*
 * The intake's files: step 4's logo and photos (SPECIAL_STEPS.uploads). The step
 * route hands the parsed post here; every file is checked and stored by
 * uploads.server.ts, and the photo records kept in the submission come only from
 * the server, never from a posted field.
 */

/** What a post may say about a stored photo: which one (its id), and the customer's details. */
export type PhotoDetails = Pick<StoredPhoto, "id" | "altText" | "placement" | "crop" | "priority">;

export type BrandingChanges = {
  /** Stored fields to $set: logo_url, logo_key, logo_thumb_key, photo_metadata, uploaded_photos. */
  set: StoredSubmission;
  /** The photo list as it will be saved. */
  photos: StoredPhoto[];
  /** Storage keys no longer named once `set` is saved: delete them after the save (deleteUploads). */
  obsolete: string[];
  problems: string[];
  added: number;
};

/**
 * What step 4's post changes about files. Every file that arrives is checked and
 * stored, whatever else the post says. Photos are named by the `id` in the stored
 * record; posted rows with an id this order does not own are ignored, so a post can
 * neither adopt another order's photo nor put an outside address in the list.
 * `details` are the posted rows (null when the post's fields were refused: the
 * stored details and logo link stay); `removeIndex` is the row of a Remove button.
 */
export async function brandingChanges(input: {
  orderId: string;
  form: FormData;
  before: Submission | null;
  details: PhotoDetails[] | null;
  logoLink: string | undefined;
  removeIndex?: number;
}): Promise<BrandingChanges> {
  const { orderId, form, before } = input;
  const refused = input.details === null;
  const problems: string[] = [];
  const obsolete: string[] = [];
  const set: StoredSubmission = {};

  // The logo: a file that arrives replaces the stored one; a typed link is used when no file is.
  const logo = await storeUploads(orderId, "logo", form.getAll("logo").slice(0, 1));
  problems.push(...logo.errors);
  const newLogo = logo.stored[0];
  const oldLogoKeys = [before?.logo_key, before?.logo_thumb_key].filter((k): k is string => typeof k === "string");
  if (newLogo) {
    Object.assign(set, { logo_url: newLogo.url, logo_key: newLogo.key, logo_thumb_key: newLogo.thumbKey });
    obsolete.push(...oldLogoKeys);
  } else if (refused) {
    // The post's fields were refused: the stored logo and link stay as they are.
  } else if (input.logoLink) {
    Object.assign(set, { logo_url: input.logoLink, logo_key: null, logo_thumb_key: null });
    obsolete.push(...oldLogoKeys);
  } else if (!before?.logo_key) {
    set.logo_url = null; // the link box was emptied
  }

  // The photos: the stored list, with the posted details of each, less a removed one.
  const posted = new Map((input.details ?? []).map((d) => [d.id, d]));
  const removedId = input.removeIndex === undefined ? undefined : (input.details?.[input.removeIndex]?.id ?? undefined);
  const photos: StoredPhoto[] = [];
  for (const photo of before?.photo_metadata ?? []) {
    if (photo.id === removedId) {
      obsolete.push(photo.key, ...(photo.thumbKey ? [photo.thumbKey] : []));
      continue;
    }
    const details = posted.get(photo.id);
    photos.push(
      details
        ? {
            ...photo,
            altText: details.altText ?? "",
            placement: details.placement,
            crop: details.crop,
            priority: details.priority,
          }
        : photo,
    );
  }
  const added = await storeUploads(orderId, "photos", form.getAll("photos"), MAX_PHOTOS - photos.length);
  problems.push(...added.errors);
  for (const p of added.stored)
    photos.push({ ...p, altText: "", placement: "gallery", crop: "landscape", priority: "medium" });
  if (added.stored.length || removedId || input.details)
    Object.assign(set, { photo_metadata: photos, uploaded_photos: photos.map((p) => p.url) });

  return { set, photos, obsolete, problems, added: added.stored.length };
}

/** What the step-4 page shows of the stored files: previews by path (the small copies), never storage keys. */
export function brandingPreviews(doc: Submission | null) {
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

/** What a step-4 save did: the draft as saved, messages about files, and whether a photo still needs its alt text. */
export type BrandingSave = { doc: Submission; problems: string[]; photosWithoutAlt: boolean };

/**
 * Saves step 4 with its files: the stored photo list with the posted details,
 * less a removed row, plus new files. Old files are deleted only once the new
 * record is saved. Next with photos still to describe saves, but stays on the step.
 */
export async function saveBrandingStep(input: {
  orderId: string;
  values: IntakeValues;
  form: FormData;
  before: Submission | null;
  reached: number;
  /** The row of the photo list's Remove button, if that was pressed. */
  removeIndex: number | undefined;
  stamp: StoredSubmission;
}): Promise<BrandingSave> {
  const { orderId, values, form, before, stamp } = input;
  const step = SPECIAL_STEPS.uploads;
  const branding = await brandingChanges({
    orderId,
    form,
    before,
    details: (values.photoMetadata as PhotoDetails[] | undefined) ?? [],
    logoLink: values.logoUrl,
    removeIndex: input.removeIndex,
  });
  const { photoMetadata: _details, logoUrl: _link, ...fields } = values;
  const photosWithoutAlt = branding.photos.some((p) => !p.altText);
  const doc = await saveStep(orderId, step, fields, photosWithoutAlt ? step : input.reached, before, {
    ...branding.set,
    ...stamp,
  });
  await deleteUploads(branding.obsolete);
  return { doc, problems: branding.problems, photosWithoutAlt };
}

/** Files that arrived without the step's other fields (a refused post, or one sent on its own): stored now, the rest left as it was; what was refused, in words. */
export async function saveArrivedFiles(orderId: string, form: FormData, before: Submission | null): Promise<string[]> {
  const branding = await brandingChanges({ orderId, form, before, details: null, logoLink: undefined });
  if (!Object.keys(branding.set).length) return branding.problems;
  await saveFields(orderId, branding.set);
  await deleteUploads(branding.obsolete);
  return branding.problems;
}
