import type { StoredPhoto, StoredSubmission } from "./data";

/*
 * Step 4's files decided (SPECIAL_STEPS.uploads): what a post changes about the stored logo and photos, from the
 * draft as read and the files stored for the post. No I/O: server/intake/uploads.server.ts stores the bytes and
 * server/intake/save.server.ts writes the draft. The photo records come only from the server's own records,
 * never from a posted field.
 */

/** At most this many photos (stated on the page, enforced by the upload reader and here). */
export const MAX_PHOTOS = 12;

/** A stored upload. `id` names it in posts (never its key); keys and URLs come only from the server's record. */
export type StoredUpload = { id: string; key: string; thumbKey: string | null; url: string; fileName: string };

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

/** A save with no file problems. */
export const NO_FILE_PROBLEMS: FileProblems = { logo: [], photos: [] };

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
  before: StoredSubmission | null;
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

/** The storage keys of files stored for a write that was never made. */
export const arrivedKeys = (arrived: ArrivedFiles) =>
  [arrived.logo, ...arrived.photos].flatMap((f) => (f ? [f.key, ...(f.thumbKey ? [f.thumbKey] : [])] : []));
