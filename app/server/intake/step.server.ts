import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
// The words the step's alert names a field with, so the page after Save & Exit names a refused one alike.
import { namedError } from "~/components/intake/labels";
import type { FormRules } from "~/domain/form-rules";
import { formatTime } from "~/domain/dates";
import {
  canOpenStep,
  completedSteps,
  formValues,
  furthestStep,
  photosWithoutAltErrors,
  unfinishedRequiredSteps,
  type IntakeData,
} from "~/domain/intake/data";
import { INTENT_VALUES, intentMode, parseIntakeIntent, type IntakeIntent } from "~/domain/intake/intents";
import { ADDED_PARAM, addedList, isIdList, withoutPostedItem } from "~/domain/intake/list-ids";
import { mapsSearchUrl, type StepAnswer, type StepPageData, type StepResult } from "~/domain/intake/page";
import { postWithoutRefused, refusedAnswers, refusedAsPosted, withoutRefused } from "~/domain/intake/refused";
import { differences, readSaveStamp } from "~/domain/intake/save-order";
import { keepListShapes, stepSchema } from "~/domain/intake/schemas";
import { FIRST_STEP, INTAKE_MESSAGES, SPECIAL_STEPS, stepMeta, TOTAL_STEPS } from "~/domain/intake/steps";
import { PAGES_MESSAGES, promise, tooManyPages } from "~/domain/order-includes";
import { aiSafeData, missingForAi, optedOutOfAi } from "~/domain/privacy";
import { redirectWithFlash, type Flash } from "~/server/flash.server";
import { deviceCopyKey } from "~/server/form-keys.server";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import { allProblems, brandingPreviews, saveArrivedFiles, type SavedStep } from "~/server/intake/files.server";
import { saveStepPost, type StepSave } from "~/server/intake/save.server";
import {
  loadSubmission,
  newItemId,
  newPageWriter,
  orderBought,
  submitIntake,
  type Submission,
} from "~/server/intake/draft.server";
import { errorMessage, log } from "~/server/log.server";
import { requireTokenAccess, type TokenAccess } from "~/server/tokens.server";
import { retryStatus } from "~/server/images.server";
import { readStepForm, UPLOAD_LIMITS_TEXT, uploaderOf } from "~/server/intake/uploads.server";

/**
 * An intake step's loader and action, shared by the fourteen step routes (app/routes/intake-form_.N.tsx:
 * one module per step, so a step's page ships only its own fields). The step's schema, and Zod with
 * it, stay here: the page gets the rules the browser checks (`stepRules`).
 */

const stepPath = (step: number) => `/intake-form/${step}`;

/** A step page's data (each step's route module, app/routes/intake-form_.N.tsx, calls this with its number). */
export async function stepLoader({ request }: LoaderFunctionArgs, step: number): Promise<StepPageData> {
  const access = await requireTokenAccess(request, "intake");
  const [doc, bought] = await Promise.all([loadSubmission(access.orderId), orderBought(access.orderId)]);
  if (!canOpenStep(step, doc)) throw redirect(stepPath(furthestStep(doc)));
  const values: IntakeData = {
    contactEmail: bought.email,
    needsContactForm: "yes",
    dataRetentionPeriod: "30days",
    pagesNeeded: ["Home", "Contact"],
    ...formValues(doc),
  };
  // The link box holds a link the customer gave, never the address of a logo they uploaded.
  if (doc?.logo_key) delete values.logoUrl;
  return {
    step,
    name: stepMeta(step)!.name,
    values,
    completed: completedSteps(doc),
    furthest: furthestStep(doc),
    savedAt: doc?.updated_at ? new Date(doc.updated_at).toISOString() : null,
    revision: Number(doc?.revision ?? 0),
    savedBy: typeof doc?.writer === "string" ? doc.writer : null,
    pageWriter: newPageWriter(),
    copyKey: deviceCopyKey(access.orderId),
    rules: stepRules(step),
    focusAdd: addedParam(request),
    extras: {
      ...brandingPreviews(doc),
      uploadLimits: UPLOAD_LIMITS_TEXT,
      paidFor: promise.paidFor(bought.includes),
      pagesIncluded: bought.includes.pages === null ? null : PAGES_MESSAGES.included(bought.includes.pages),
      mapsSearchUrl: mapsSearchUrl(String(values.businessName ?? ""), values.serviceArea),
      preview:
        step === SPECIAL_STEPS.preview
          ? { data: aiSafeData(doc ?? {}), missing: missingForAi(doc ?? {}), byHand: optedOutOfAi(doc) }
          : null,
    },
  };
}

/** A refused post: its messages beside what was typed (lists in a shape the form never sends are dropped, not echoed). */
const refuse = (reply: StepResult, status = 400) =>
  data<StepAnswer>({ result: { ...reply, initialValue: keepListShapes(reply.initialValue ?? null) } }, { status });
/** A message beside the saved state (the step was saved; the page reloads what is stored). */
const notice = (message: string, status = 400) => data<StepAnswer>({ result: null, notice: message }, { status });

/**
 * A step post: check, save, then do what the button asked. Saving happens for
 * every intent (Back and Save & Exit keep what was typed); "next" and "submit"
 * also check the step's required fields.
 */
export async function stepAction({ request }: ActionFunctionArgs, step: number) {
  const access = await requireTokenAccess(request, "intake");
  const posted = await readStepForm(request);
  const intent = parseIntakeIntent(posted.get("intent"));
  // A Remove names its item by id: the post is read without that item (an id already gone changes nothing).
  const form =
    intent?.type === "remove" && isIdList(intent.field) ? withoutPostedItem(posted, intent.field, intent.id) : posted;
  const submission = parseWithZod(form, { schema: stepSchema(step, intentMode(intent)) });
  if (!intent) return refuse(submission.reply({ formErrors: ["Unknown action. Please use the buttons on the form."] }));
  if (intent.type === "submit" && step !== TOTAL_STEPS)
    return refuse(submission.reply({ formErrors: ["The form is submitted from its last step."] }));

  const before = await loadSubmission(access.orderId);
  // The jump rule holds for posts too: a step not yet reached cannot be saved or skipped past.
  if (!canOpenStep(step, before)) return redirect(stepPath(furthestStep(before)), 303);

  let values = submission.status === "success" ? submission.value : null;
  // Some answers refused: every other answer is saved all the same, and Back, Save & Exit and the jump grid
  // still leave (issue 34 item 10); the refused ones stay as stored and are shown as typed, with their messages.
  const refused = submission.status === "success" ? [] : refusedAnswers(submission.error);
  if (!values) {
    // Files that arrived are stored even when other fields are refused, so nothing chosen is lost.
    if (step === SPECIAL_STEPS.uploads) {
      await saveArrivedFiles(uploaderOf(request, access.orderId), form, before).catch((error) =>
        log("error", "intake.save_files_failed", { order_id: access.orderId, reason: errorMessage(error) }),
      );
      return refuse(submission.reply());
    }
    const rest = parseWithZod(postWithoutRefused(form, refused, formValues(before)), {
      schema: stepSchema(step, "draft"),
    });
    if (!refused.length || rest.status !== "success") return refuse(submission.reply());
    values = withoutRefused(rest.value, refused);
  }
  // Step 7: no more pages than the order includes (the server's rule; the page says how many).
  if (step === SPECIAL_STEPS.pages && !refused.length) {
    const tooMany = tooManyPages(
      "pagesNeeded" in values ? values.pagesNeeded : undefined,
      (await orderBought(access.orderId)).includes.pages,
    );
    if (tooMany) return refuse(submission.reply({ fieldErrors: { pagesNeeded: [tooMany] } }));
  }

  // Saves are ordered: an older save never overwrites a newer one, and a change made elsewhere is shown, not overwritten.
  let outcome: StepSave;
  try {
    outcome = await saveStepPost({
      uploader: uploaderOf(request, access.orderId),
      step,
      form,
      values,
      // With a refused answer the step is not done: Next and Submit save it as a draft and stay.
      intent: refused.length && intentMode(intent) === "next" ? { type: "stay" } : intent,
      stamp: readSaveStamp(form),
      before,
    });
  } catch (error) {
    log("error", "intake.save_failed", { order_id: access.orderId, step, reason: errorMessage(error) });
    return intent.type === "autosave"
      ? data<StepAnswer>({ result: null, savedTime: null }, { status: 503 })
      : notice(INTAKE_MESSAGES.submitFailed, 503);
  }
  switch (outcome.order) {
    case "stale":
      // A newer save of this page has landed already: this one changes nothing (a Remove still took its item out).
      return intent.type === "autosave"
        ? data<StepAnswer>({ result: null, savedTime: formatTime(new Date()) })
        : redirect(stepPath(step), 303);
    case "conflict": {
      // The boxes keep what this page sent (without JavaScript the page is drawn anew from this answer).
      const reply = submission.reply();
      return data<StepAnswer>(
        {
          result: { ...reply, initialValue: keepListShapes(reply.initialValue ?? null) },
          conflict: {
            revision: Number(outcome.before?.revision ?? 0),
            fields: differences(formValues(outcome.before), values),
          },
        },
        { status: 409 },
      );
    }
  }
  const saved = outcome.saved;
  if (refused.length && !LEAVES.has(intent.type)) {
    const reply = submission.reply();
    return data<StepAnswer>(
      {
        result: {
          ...reply,
          initialValue: refusedAsPosted(keepListShapes(reply.initialValue ?? null), refused, newItemId),
        },
        savedBeside: true,
      },
      { status: 400 },
    );
  }
  // From here on the step is saved: messages go beside the saved state (reloaded), not the posted form.
  const fileProblems = allProblems(saved.problems);
  if (fileProblems.length)
    // The alert says it all; each file's problem is named on its own box too (WCAG 3.3.1).
    return data<StepAnswer>(
      {
        result: null,
        notice: fileProblems.join(" "),
        fieldErrors: Object.fromEntries(Object.entries(saved.problems).filter(([, messages]) => messages.length)),
      },
      // Past the hour's budget of image pixels (429) or while the line of images is full (503): on the same form,
      // with everything typed saved.
      { status: retryStatus(fileProblems) ?? 400 },
    );

  switch (intent.type) {
    case "autosave":
      return data<StepAnswer>({ result: null, savedTime: formatTime(new Date()) });
    case "stay": {
      const added = addedList(form, Object.keys(values));
      return redirect(added ? `${stepPath(step)}?${ADDED_PARAM}=${added}` : stepPath(step), 303);
    }
    case "remove":
      return redirect(stepPath(step), 303);
    case "jump":
      return redirect(stepPath(canOpenStep(intent.step, saved.doc) ? intent.step : step), 303);
    case "back":
      return redirect(stepPath(Math.max(FIRST_STEP, step - 1)), 303);
    case "save-exit":
      return redirectWithFlash(
        request,
        "/",
        savedFlash(step, submission.status === "success" ? null : submission.error),
        { status: 303 },
      );
    case "next":
      return goNext(step, saved);
    case "submit":
      return submit(request, access, saved.doc);
  }
}

/**
 * What the page after Save & Exit says: "Progress Saved", or, when answers were refused, which were not
 * saved, each in the words of the step's own alert (the rest of the step was saved).
 */
function savedFlash(step: number, error: Record<string, string[] | null> | null | undefined): Flash {
  const notSaved = Object.entries(error ?? {}).flatMap(([path, messages]) =>
    path && messages?.length ? [namedError(path, messages[0])] : [],
  );
  if (!notSaved.length) return { kind: "success", ...INTAKE_MESSAGES.saved };
  return { kind: "error", ...INTAKE_MESSAGES.savedExcept(`step ${step}, ${stepMeta(step)!.name}`, notSaved) };
}

/** The presses that leave the step: with a refused answer they leave once the rest is saved. */
const LEAVES = new Set<IntakeIntent["type"]>(["back", "save-exit", "jump"]);

function goNext(step: number, saved: SavedStep) {
  if (saved.photosWithoutAlt)
    // The alert names the step's task; each photo without alt text gets its own message on its field.
    return data<StepAnswer>(
      {
        result: null,
        notice: "Please describe each new photo (alt text), then continue.",
        fieldErrors: photosWithoutAltErrors(saved.doc),
      },
      { status: 400 },
    );
  const missing = step === SPECIAL_STEPS.preview ? missingForAi(saved.doc) : null;
  if (missing) return notice(missing);
  return redirect(stepPath(Math.min(TOTAL_STEPS, step + 1)), 303);
}

async function submit(request: Request, access: TokenAccess, doc: Submission) {
  const unfinished = unfinishedRequiredSteps(doc);
  const missing = missingForAi(doc);
  if (unfinished.length || missing) {
    const names = unfinished.map((n) => stepMeta(n)!.name).join(", ");
    return notice([names && `Please complete: ${names}.`, missing].filter(Boolean).join(" "));
  }
  try {
    const outcome = await submitIntake(access);
    return redirectWithFlash(
      request,
      "/intake-form",
      { kind: "success", ...INTAKE_MESSAGES[outcome] },
      { status: 303 },
    );
  } catch (error) {
    log("error", "intake.submit_failed", { order_id: access.orderId, reason: errorMessage(error) });
    return notice(INTAKE_MESSAGES.submitFailed, 503);
  }
}

/** The list named by the page's `added` parameter (a known list only: the value is never echoed as given). */
function addedParam(request: Request): string | null {
  const added = new URL(request.url).searchParams.get(ADDED_PARAM) ?? "";
  return isIdList(added) ? added : null;
}

/**
 * The step's rules for the browser (domain/form-rules.ts), from the same schemas the action parses
 * with: every field's bounds from the draft schema (every button saves a draft), and the fields
 * Next and Submit need, with their messages, from the "next" schema. What a rule across fields
 * says (a list row missing its name, step 12's consents) stays with the server's answer.
 */
export function stepRules(step: number): FormRules {
  const cached = rulesByStep.get(step);
  if (cached) return cached;
  const draft = formRules(stepSchema(step, "draft"));
  const next = formRules(stepSchema(step, "next"));
  const forNext = [INTENT_VALUES.next, INTENT_VALUES.submit];
  const needs = Object.fromEntries(
    Object.entries(next.fields)
      .filter(([name, rule]) => rule.required && !draft.fields[name]?.required)
      .map(([name, rule]) => [name, rule.required!]),
  );
  // A row's needs that only Next has (step 4: each photo's alt text).
  const rowsForNext = (next.rows ?? [])
    .map((row) => {
      const always = draft.rows?.find((r) => r.list === row.list)?.needs ?? {};
      const more = Object.entries(row.needs).filter(([key]) => !(key in always));
      return { ...row, needs: Object.fromEntries(more), intents: forNext };
    })
    .filter((row) => Object.keys(row.needs).length);
  const rules: FormRules = { fields: draft.fields };
  if (Object.keys(needs).length) rules.intents = Object.fromEntries(forNext.map((intent) => [intent, needs]));
  const rows = [...(draft.rows ?? []), ...rowsForNext];
  if (rows.length) rules.rows = rows;
  rulesByStep.set(step, rules);
  return rules;
}
const rulesByStep = new Map<number, FormRules>();
