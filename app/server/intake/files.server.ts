import type { IntakeValues, StoredPhoto, StoredSubmission } from "~/domain/intake/data";
import { SPECIAL_STEPS } from "~/domain/intake/steps";
import { draftAfterRace, saveFiles, saveStep, type Submission } from "~/server/intake/draft.server";
import { SaveRaced } from "~/server/intake/turns.server";
import {
  deleteUploads,
  MAX_PHOTOS,
  storeUploads,
  uploadPath,
  type StoredUpload,
  type Uploader,
} from "~/server/intake/uploads.server";

/*
 * The intake's files: step 4's logo and photos (SPECIAL_STEPS.uploads). The step
 * route hands the parsed post here; every file is checked and stored by
 * server/intake/uploads.server.ts, and the photo records kept in the submission come only from
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
  problems: FileProblems;
  added: number;
};

/** The files a post carried, checked and stored (once: a write that must be done again reuses them). */
export type ArrivedFiles = { logo: StoredUpload | undefined; photos: StoredUpload[]; problems: FileProblems };
/** Why files were not added, by the box they were chosen in (each named on its own field, WCAG 3.3.1). */
export type FileProblems = { logo: string[]; photos: string[] };
/** Every file problem, in one list (the form's alert; the upload's answer). */
export const allProblems = (p: FileProblems) => [...p.logo, ...p.photos];

/** Checks and stores every file that arrives with a post, whatever else the post says. */
export async function storeArrivedFiles(
  uploader: Uploader,
  form: FormData,
  before: Submission | null,
): Promise<ArrivedFiles> {
  const logo = await storeUploads(uploader, "logo", form.getAll("logo").slice(0, 1));
  const room = MAX_PHOTOS - (before?.photo_metadata?.length ?? 0);
  const photos = await storeUploads(uploader, "photos", form.getAll("photos"), Math.max(0, room));
  return { logo: logo.stored[0], photos: photos.stored, problems: { logo: logo.errors, photos: photos.errors } };
}

/**
 * What step 4's post changes about files, worked out from the draft as read
 * (`before`) and the files stored for it. Photos are named by the `id` in the
 * stored record; posted rows with an id this order does not own are ignored, so
 * a post can neither adopt another order's photo nor put an outside address in
 * the list. `details` are the posted rows (null when the post's fields were
 * refused: the stored details and logo link stay); `removeId` is the photo a
 * Remove button names (by its id: a photo already removed changes nothing).
 */
export function brandingChanges(input: {
  before: Submission | null;
  arrived: ArrivedFiles;
  details: PhotoDetails[] | null;
  logoLink: string | undefined;
  removeId?: string;
}): BrandingChanges {
  const { before, arrived } = input;
  const refused = input.details === null;
  const problems: FileProblems = { logo: [...arrived.problems.logo], photos: [...arrived.problems.photos] };
  const obsolete: string[] = [];
  const set: StoredSubmission = {};
  const keysOf = (f: { key: string; thumbKey: string | null }) => [f.key, ...(f.thumbKey ? [f.thumbKey] : [])];

  // The logo: a file that arrives replaces the stored one; a typed link is used when no file is.
  const newLogo = arrived.logo;
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
  const removedId = input.removeId;
  const photos: StoredPhoto[] = [];
  let removed = false;
  for (const photo of before?.photo_metadata ?? []) {
    if (photo.id === removedId) {
      obsolete.push(...keysOf(photo));
      removed = true;
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
  let added = 0;
  for (const p of arrived.photos) {
    // Photos added meanwhile (another tab) may have taken the room this one was stored for.
    if (photos.length >= MAX_PHOTOS) {
      problems.photos.push(`${p.fileName.slice(0, 80)} was not added: at most ${MAX_PHOTOS} photos.`);
      obsolete.push(...keysOf(p));
      continue;
    }
    photos.push({ ...p, altText: "", placement: "gallery", crop: "landscape", priority: "medium" });
    added++;
  }
  if (added || removed || input.details)
    Object.assign(set, { photo_metadata: photos, uploaded_photos: photos.map((p) => p.url) });

  return { set, photos, obsolete, problems, added };
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

/**
 * What any step's save did (not only step 4's): the draft as saved, messages about files, and whether a photo still
 * needs its alt text.
 */
export type SavedStep = { doc: Submission; problems: FileProblems; photosWithoutAlt: boolean };
/** A save with no file problems. */
export const NO_FILE_PROBLEMS: FileProblems = { logo: [], photos: [] };

/**
 * Saves step 4 with its files: the stored photo list with the posted details,
 * less a removed photo, plus new files. Old files are deleted only once the new
 * record is saved. Next with photos still to describe saves, but stays on the
 * step. The files are stored before the draft is written; a write that lost its
 * turn (SaveRaced) is done again by the caller with the files already stored
 * (`arrived`), never storing them twice.
 */
export async function saveBrandingStep(input: {
  orderId: string;
  values: IntakeValues;
  before: Submission | null;
  reached: number;
  arrived: ArrivedFiles;
  /** The photo a Remove button names (its id), if that was pressed. */
  removeId: string | undefined;
  /** Stored fields saved beside the step's (its stamp, its lists' ids). */
  extra: StoredSubmission;
}): Promise<SavedStep> {
  const { orderId, values, before, extra } = input;
  const step = SPECIAL_STEPS.uploads;
  const branding = brandingChanges({
    before,
    arrived: input.arrived,
    details: (values.photoMetadata as PhotoDetails[] | undefined) ?? [],
    logoLink: values.logoUrl,
    removeId: input.removeId,
  });
  const { photoMetadata: _details, logoUrl: _link, ...fields } = values;
  const photosWithoutAlt = branding.photos.some((p) => !p.altText);
  const doc = await saveStep(orderId, step, fields, photosWithoutAlt ? step : input.reached, before, {
    ...branding.set,
    ...extra,
  });
  await deleteUploads(branding.obsolete);
  return { doc, problems: branding.problems, photosWithoutAlt };
}

/** How often a write of the files that lost its turn to another (a second tab's upload) is tried again: each try is one other write landing, and a step holds at most 12 photos. */
const FILE_WRITE_TRIES = 12;

/**
 * Files that arrived without the step's other fields (a refused post, or one
 * sent on its own): stored now and added to the draft in turn, the rest left as
 * it was; what was refused, in words. Two tabs uploading at once both keep their
 * files: the write that loses its turn reads the draft again and adds to that.
 */
export async function saveArrivedFiles(
  uploader: Uploader,
  form: FormData,
  before: Submission | null,
): Promise<FileProblems> {
  const { orderId } = uploader;
  const arrived = await storeArrivedFiles(uploader, form, before);
  let draft = before;
  for (let attempt = 1; ; attempt++) {
    const branding = brandingChanges({ before: draft, arrived, details: null, logoLink: undefined });
    if (!Object.keys(branding.set).length) return branding.problems;
    try {
      await saveFiles(orderId, draft, branding.set);
      await deleteUploads(branding.obsolete);
      return branding.problems;
    } catch (error) {
      if (!(error instanceof SaveRaced) || attempt >= FILE_WRITE_TRIES) {
        await deleteUploads(arrivedKeys(arrived));
        throw error;
      }
      draft = await draftAfterRace(orderId, draft);
    }
  }
}

/** The storage keys of files stored for a write that was never made. */
export const arrivedKeys = (arrived: ArrivedFiles) =>
  [arrived.logo, ...arrived.photos].flatMap((f) => (f ? [f.key, ...(f.thumbKey ? [f.thumbKey] : [])] : []));
