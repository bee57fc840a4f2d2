import {
  arrivedKeys,
  brandingChanges,
  NO_FILE_PROBLEMS,
  type ArrivedFiles,
  type FileProblems,
  type PhotoDetails,
} from "~/domain/intake/branding";
import type { IntakeValues, StoredSubmission } from "~/domain/intake/data";
import type { IntakeIntent } from "~/domain/intake/intents";
import { nextStamp, saveOrder, type SaveStamp } from "~/domain/intake/save-order";
import { SPECIAL_STEPS } from "~/domain/intake/steps";
import {
  draftAfterRace,
  removeStoredItem,
  saveFiles,
  saveStep,
  withListIds,
  type Submission,
} from "~/server/intake/draft.server";
import { SaveRaced } from "~/server/intake/turns.server";
import { deleteUploads, storeArrivedFiles, type Uploader } from "~/server/intake/uploads.server";

/*
 * A step post's save, walked once: step 4's files are stored (uploads.server.ts); what the post changes is
 * decided in domain/intake/ (save-order.ts: the newest save of a step wins, a change made elsewhere is shown
 * rather than overwritten; list-ids.ts: list items addressed by their ids; branding.ts: the files' records);
 * then the draft is written once, in its turn (draft.server.ts), so two posts that read the same draft never
 * both write it: the one that loses reads the draft again and decides again. Here "store" is bytes going
 * to storage, "save" a write to the draft.
 */

/**
 * What any step's save did (not only step 4's): the draft as saved, messages about files, and whether a photo still
 * needs its alt text.
 */
export type SavedStep = { doc: Submission; problems: FileProblems; photosWithoutAlt: boolean };

export type StepSave =
  /** A newer save of this page had landed: nothing else changed (a Remove still took its item out). */
  | { order: "stale" }
  /** Saved elsewhere since this page loaded: `before` is the draft as it is now. */
  | { order: "conflict"; before: Submission | null }
  | { order: "applied"; saved: SavedStep };

/** How often a save that lost its turn to another save of the same draft is decided again. */
const TRIES = 8;

export async function saveStepPost(input: {
  /** The intake link's order and the client's address (whose budget of image pixels step 4's files use). */
  uploader: Uploader;
  step: number;
  /** The post as read (a Remove's item already taken out of it). */
  form: FormData;
  values: IntakeValues;
  intent: IntakeIntent;
  stamp: SaveStamp;
  /** The draft as this request first read it. */
  before: Submission | null;
}): Promise<StepSave> {
  const { uploader, step, form, intent, stamp } = input;
  const { orderId } = uploader;
  const removal = intent.type === "remove" ? intent : null;
  const reached = intent.type === "next" ? step + 1 : step;
  let draft = input.before;
  // Step 4's files are checked and stored once, whichever attempt writes them.
  let arrived: ArrivedFiles | null = null;
  for (let attempt = 1; ; attempt++) {
    try {
      switch (saveOrder(draft, stamp)) {
        case "stale":
          await removeStoredItem(orderId, draft, removal);
          if (step === SPECIAL_STEPS.uploads) await saveArrivedFiles(uploader, form, draft);
          return { order: "stale" };
        case "conflict":
          // Files chosen are kept even so (added to the draft); the fields wait for the customer's choice.
          if (step === SPECIAL_STEPS.uploads) await saveArrivedFiles(uploader, form, draft);
          return { order: "conflict", before: draft };
      }
      const lists = withListIds(form, input.values, draft, removal);
      const extra = { ...nextStamp(draft, stamp), ...lists.set };
      if (step !== SPECIAL_STEPS.uploads)
        return {
          order: "applied",
          saved: {
            doc: await saveStep(orderId, step, lists.values, reached, draft, extra),
            problems: NO_FILE_PROBLEMS,
            photosWithoutAlt: false,
          },
        };
      arrived ??= await storeArrivedFiles(uploader, form, draft);
      const saved = await saveBrandingStep({
        orderId,
        values: lists.values,
        before: draft,
        reached,
        arrived,
        removeId: removal?.field === "photoMetadata" ? removal.id : undefined,
        extra,
      });
      return { order: "applied", saved };
    } catch (error) {
      if (!(error instanceof SaveRaced) || attempt >= TRIES) {
        if (arrived) await deleteUploads(arrivedKeys(arrived));
        throw error;
      }
      draft = await draftAfterRace(orderId, draft);
    }
  }
}

/**
 * Saves step 4 with its files: the stored photo list with the posted details,
 * less a removed photo, plus new files. Old files are deleted only once the new
 * record is saved. Next with photos still to describe saves, but stays on the
 * step. The files are stored before the draft is written; a write that lost its
 * turn (SaveRaced) is done again by the caller with the files already stored
 * (`arrived`), never storing them twice.
 */
async function saveBrandingStep(input: {
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
