import type { IntakeValues } from "~/domain/intake/data";
import type { IntakeIntent } from "~/domain/intake/intents";
import { nextStamp, saveOrder, type SaveStamp } from "~/domain/intake/save-order";
import { SPECIAL_STEPS } from "~/domain/intake/steps";
import {
  arrivedKeys,
  NO_FILE_PROBLEMS,
  saveArrivedFiles,
  saveBrandingStep,
  storeArrivedFiles,
  type ArrivedFiles,
  type SavedStep,
} from "~/server/intake/files.server";
import { draftAfterRace, removeStoredItem, saveStep, withListIds, type Submission } from "~/server/intake/draft.server";
import { SaveRaced } from "~/server/intake/turns.server";
import { deleteUploads, type Uploader } from "~/server/intake/uploads.server";

/*
 * A step post's save, in order (domain/intake/save-order.ts): the newest save of
 * a step wins, a change made elsewhere is shown rather than overwritten, and
 * list items are addressed by their ids (domain/intake/list-ids.ts). Each write
 * takes its turn (server/intake/draft.server.ts), so two posts that read the same
 * draft never both write it: the one that loses reads the draft again and
 * decides again.
 */

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
