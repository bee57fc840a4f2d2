import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useRef } from "react";
import { SendStatus } from "~/components/connection";
import { FormAlert } from "~/components/forms";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { useHydrated, useIsPending } from "~/components/hooks";
import { StepFormContext, useLiveValue } from "~/components/intake/fields";
import { fieldLabel, namedError } from "~/components/intake/labels";
import { StepBody } from "~/components/intake/StepBody";
import { nextSeq, useAutosave, WRITER, type Conflict } from "~/components/intake/useAutosave";
import { UploadList, useUploads } from "~/components/intake/uploads";
import { LiveRegion } from "~/components/LiveRegion";
import { RESTORED_MESSAGE, useDeviceCopy } from "~/components/useDeviceCopy";
import { useKeepTyping } from "~/components/useKeepTyping";
import {
  canOpenStep,
  completedSteps,
  formValues,
  furthestStep,
  unfinishedRequiredSteps,
  withoutItem,
  type IntakeData,
  type IntakeValues,
  type StoredSubmission,
} from "~/domain/intake/data";
import {
  differences,
  INTAKE_CONFLICT,
  nextStamp,
  readSaveStamp,
  SAVE_FIELDS,
  saveOrder,
} from "~/domain/intake/save-order";
import { INTENT_VALUES, intentMode, parseIntakeIntent, type IntakeIntent } from "~/domain/intake/intents";
import { AI_CHOICE, keepListShapes, REQUIRED_CONSENTS, stepSchema } from "~/domain/intake/schemas";
import { FIRST_STEP, INTAKE_MESSAGES, SPECIAL_STEPS, stepMeta, STEPS, TOTAL_STEPS } from "~/domain/intake/steps";
import { aiSafeData, missingForAi, optedOutOfAi } from "~/domain/privacy";
import { NotFound } from "~/root";
import { redirectWithFlash } from "~/server/flash.server";
import { deviceCopyKey } from "~/server/form-keys.server";
import { brandingPreviews, saveArrivedFiles, saveBrandingStep } from "~/server/intake-files.server";
import { loadSubmission, orderEmail, saveStep, submitIntake, type Submission } from "~/server/intake.server";
import { errorMessage, log } from "~/server/log.server";
import { requireTokenAccess, type TokenAccess } from "~/server/tokens.server";
import { readStepForm, UPLOAD_LIMITS_TEXT } from "~/server/uploads.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `Step ${data.step}: ${data.name}` : "Intake Form"} | 24-Hour Website` },
  { name: "robots", content: "noindex" },
];

function parseStep(param: string | undefined): number {
  const step = Number(param);
  if (!Number.isInteger(step) || !stepMeta(step)) throw new Response("Not Found", { status: 404 });
  return step;
}

const stepPath = (step: number) => `/intake-form/${step}`;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const access = await requireTokenAccess(request, "intake");
  const step = parseStep(params.step);
  const doc = await loadSubmission(access.orderId);
  if (!canOpenStep(step, doc)) throw redirect(stepPath(furthestStep(doc)));
  const values: IntakeData = {
    contactEmail: await orderEmail(access.orderId),
    needsContactForm: "yes",
    dataRetentionPeriod: "30days",
    pagesNeeded: ["Home", "Contact"],
    ...formValues(doc),
  };
  // The link box holds a link the customer gave, never the address of a logo they uploaded.
  if (doc?.logo_key) delete values.logoUrl;
  const name = String(values.businessName ?? "").trim();
  return {
    step,
    name: stepMeta(step)!.name,
    values,
    completed: completedSteps(doc),
    furthest: furthestStep(doc),
    savedAt: doc?.updated_at ? new Date(doc.updated_at).toISOString() : null,
    revision: Number(doc?.revision ?? 0),
    // Names this order's copies on the device (components/useDeviceCopy.ts) without the order id itself.
    copyKey: deviceCopyKey(access.orderId),
    extras: {
      ...brandingPreviews(doc),
      uploadLimits: UPLOAD_LIMITS_TEXT,
      mapsSearchUrl: name
        ? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent([name, values.serviceArea].filter(Boolean).join(" "))}`
        : null,
      preview:
        step === SPECIAL_STEPS.preview
          ? { data: aiSafeData(doc ?? {}), missing: missingForAi(doc ?? {}), byHand: optedOutOfAi(doc) }
          : null,
    },
  };
}

/**
 * After a step post, reload the step even when the post answered with a message
 * (a 400 that still saved uploads or other fields). Never after an autosave:
 * reloading remounts the form, which could drop keystrokes made meanwhile.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  formData,
  actionStatus,
  defaultShouldRevalidate,
}) => {
  if (formMethod?.toUpperCase() !== "POST") return defaultShouldRevalidate;
  // A conflict keeps the page as typed (the customer chooses); an autosave never remounts the form.
  return actionStatus !== 409 && formData?.get("intent") !== INTENT_VALUES.autosave;
};

/** A refused post: its messages beside what was typed (lists in a shape the form never sends are dropped, not echoed). */
const refuse = (reply: SubmissionResult, status = 400) =>
  data({ result: { ...reply, initialValue: keepListShapes(reply.initialValue ?? null) } }, { status });
/** A message beside the saved state (the step was saved; the page reloads what is stored). */
const notice = (message: string, status = 400) => data({ result: null, notice: message }, { status });

/**
 * A step post: check, save, then do what the button asked. Saving happens for
 * every intent (Back and Save & Exit keep what was typed); "next" and "submit"
 * also check the step's required fields.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const access = await requireTokenAccess(request, "intake");
  const step = parseStep(params.step);
  const form = await readStepForm(request);
  const intent = parseIntakeIntent(form.get("intent"));
  const submission = parseWithZod(form, { schema: stepSchema(step, intentMode(intent)) });
  if (!intent) return refuse(submission.reply({ formErrors: ["Unknown action. Please use the buttons on the form."] }));
  if (intent.type === "submit" && step !== TOTAL_STEPS)
    return refuse(submission.reply({ formErrors: ["The form is submitted from its last step."] }));

  const before = await loadSubmission(access.orderId);
  // The jump rule holds for posts too: a step not yet reached cannot be saved or skipped past.
  if (!canOpenStep(step, before)) return redirect(stepPath(furthestStep(before)), 303);

  if (submission.status !== "success") {
    // Files that arrived are stored even when other fields are refused, so nothing chosen is lost.
    if (step === SPECIAL_STEPS.uploads) {
      await saveArrivedFiles(access.orderId, form, before).catch((error) =>
        log("error", "intake.save_files_failed", { order_id: access.orderId, reason: errorMessage(error) }),
      );
    }
    return refuse(submission.reply());
  }

  // Saves are ordered: an older save never overwrites a newer one, and a change made elsewhere is shown, not overwritten.
  const stamp = readSaveStamp(form);
  switch (saveOrder(before, stamp)) {
    case "stale":
      // A newer save of this page has landed already: this one changes nothing.
      return intent.type === "autosave"
        ? data({ result: null, savedAt: new Date().toISOString() })
        : redirect(stepPath(step), 303);
    case "conflict":
      return data(
        {
          result: null,
          conflict: {
            revision: Number(before?.revision ?? 0),
            fields: differences(formValues(before), submission.value),
          },
        },
        { status: 409 },
      );
  }

  let values: IntakeValues = { ...submission.value };
  if (intent.type === "remove" && intent.field !== "photoMetadata")
    values = withoutItem(values, intent.field, intent.index);
  let saved: Saved;
  try {
    saved = await save(access, step, values, intent, form, before, nextStamp(before, stamp));
  } catch (error) {
    log("error", "intake.save_failed", { order_id: access.orderId, step, reason: errorMessage(error) });
    return intent.type === "autosave"
      ? data({ result: null, savedAt: null }, { status: 503 })
      : notice(INTAKE_MESSAGES.submitFailed, 503);
  }
  // From here on the step is saved: messages go beside the saved state (reloaded), not the posted form.
  if (saved.problems.length) return notice(saved.problems.join(" "));

  switch (intent.type) {
    case "autosave":
      return data({ result: null, savedAt: new Date().toISOString() });
    case "stay":
    case "remove":
      return redirect(stepPath(step), 303);
    case "jump":
      return redirect(stepPath(canOpenStep(intent.step, saved.doc) ? intent.step : step), 303);
    case "back":
      return redirect(stepPath(Math.max(FIRST_STEP, step - 1)), 303);
    case "save-exit":
      return redirectWithFlash(request, "/", { kind: "success", ...INTAKE_MESSAGES.saved }, { status: 303 });
    case "next":
      return goNext(step, saved);
    case "submit":
      return submit(request, access, saved.doc);
  }
}

type Saved = { doc: Submission; problems: string[]; photosWithoutAlt: boolean };

/** Saves the step; step 4 with its files (server/intake-files.server.ts). */
async function save(
  access: TokenAccess,
  step: number,
  values: IntakeValues,
  intent: IntakeIntent,
  form: FormData,
  before: Submission | null,
  stamp: StoredSubmission,
): Promise<Saved> {
  const reached = intent.type === "next" ? step + 1 : step;
  if (step === SPECIAL_STEPS.uploads) {
    const removeIndex = intent.type === "remove" && intent.field === "photoMetadata" ? intent.index : undefined;
    return saveBrandingStep({ orderId: access.orderId, values, form, before, reached, removeIndex, stamp });
  }
  return {
    doc: await saveStep(access.orderId, step, values, reached, before, stamp),
    problems: [],
    photosWithoutAlt: false,
  };
}

function goNext(step: number, saved: Saved) {
  if (saved.photosWithoutAlt) return notice("Please describe each new photo (alt text), then continue.");
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

export default function IntakeStep() {
  const {
    step,
    name,
    values: saved,
    completed,
    furthest,
    savedAt,
    revision,
    copyKey,
    extras,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const meta = stepMeta(step)!;
  const busy = useIsPending();
  const [form] = useForm({
    id: `intake-step-${step}`,
    // Conform keeps registered inputs in step with its defaults, so they must be the saved values.
    defaultValue: saved,
    lastResult: busy ? undefined : actionData?.result,
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: stepSchema(step, intentMode(parseIntakeIntent(formData.get("intent")))) }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const values = (actionData?.result?.initialValue as IntakeData | undefined) ?? saved; // a refused post keeps what was typed
  const autosave = useAutosave(form.id, step, savedAt);
  const conflict = (actionData && "conflict" in actionData ? actionData.conflict : undefined) ?? autosave.conflict;
  // Typing made while Add, Remove or Enter is in flight is put back into the re-rendered step.
  useKeepTyping(form.id, savedAt, renameAfterRemove);
  // What is typed is kept on this device, per order and step, until the server has it.
  const restored = useDeviceCopy(form.id, `intake:${copyKey}:${step}`, savedAt);
  // Step 4's files upload on their own, with progress (after the autosave, which must see the step shown again first).
  const uploads = useUploads(form.id, savedAt);
  const hydrated = useHydrated();
  const basedOn = useRef<HTMLInputElement>(null);
  const seqField = useRef<HTMLInputElement>(null);
  const formProps = getFormProps(form);

  return (
    <div className="wrap section">
      <header className="intake-header">
        <progress value={step} max={TOTAL_STEPS} aria-label={`Step ${step} of ${TOTAL_STEPS}`} />
        <p>
          Step {step} of {TOTAL_STEPS}
        </p>
        <h1>{meta.heading ?? name}</h1>
        <p className="badges">
          <span className="badge badge-muted">About {meta.minutes} min</span>
          <span className="badge">{meta.category}</span>
          {/* One live region, present from the start: each autosave's "Last saved" (or "Not saved yet") is announced (WCAG 4.1.3). */}
          <LiveRegion inline className="hint">
            {autosave.unsaved ? "Not saved yet" : autosave.lastSaved ? `Last saved ${autosave.lastSaved}` : null}
          </LiveRegion>
        </p>
      </header>

      <StepFormContext.Provider value={{ formId: form.id, values, errors: form.allErrors }}>
        <Form
          method="post"
          {...formProps}
          onSubmit={(event) => {
            if (seqField.current) seqField.current.value = nextSeq(); // this save is newer than every one before
            formProps.onSubmit(event);
          }}
          key={savedAt ?? "new"}
          encType={step === SPECIAL_STEPS.uploads ? "multipart/form-data" : undefined}
          noValidate
          className="card intake-form"
        >
          {/* Enter in a field saves the step and stays (adds a list item), never jumps ahead. */}
          <button
            type="submit"
            name="intent"
            value={INTENT_VALUES.stay}
            className="hidden-default"
            tabIndex={-1}
            aria-hidden="true"
          >
            Save
          </button>
          <FormAlert
            message={
              form.errors?.[0] ??
              firstFieldError(form.allErrors) ??
              (actionData && "notice" in actionData ? actionData.notice : undefined)
            }
          />
          {/* What this save is based on (domain/intake/save-order.ts). */}
          <input ref={basedOn} type="hidden" name={SAVE_FIELDS.basedOn} defaultValue={revision} />
          {hydrated ? (
            <>
              <input type="hidden" name={SAVE_FIELDS.writer} value={WRITER} />
              <input ref={seqField} type="hidden" name={SAVE_FIELDS.seq} defaultValue="" />
            </>
          ) : null}
          {conflict ? (
            <ConflictNotice
              conflict={conflict}
              step={step}
              keepMine={() => {
                if (basedOn.current) basedOn.current.value = String(conflict.revision);
              }}
            />
          ) : null}
          {restored ? <p className="flash flash-info">{RESTORED_MESSAGE}</p> : null}
          <StepBody step={step} extras={extras} />
          <UploadList {...uploads} formId={form.id} version={savedAt} />
          <StepButtons step={step} busy={busy} previewMissing={extras.preview?.missing ?? null} />
          <SendStatus />
        </Form>

        <nav aria-labelledby="jump-heading" className="section">
          <h2 id="jump-heading">Jump to Section</h2>
          <ul className="jump-grid">
            {STEPS.map((s) => {
              const allowed = completed.includes(s.number) || s.number <= Math.max(furthest, step);
              return (
                <li key={s.number}>
                  <button
                    type="submit"
                    form={form.id}
                    name="intent"
                    value={INTENT_VALUES.jump(s.number)}
                    disabled={!allowed}
                    aria-current={s.number === step ? "step" : undefined}
                    className={completed.includes(s.number) ? "done" : undefined}
                  >
                    {s.number}. {s.name}
                    {completed.includes(s.number) ? <span className="visually-hidden"> (completed)</span> : null}
                  </button>
                </li>
              );
            })}
          </ul>
        </nav>
      </StepFormContext.Provider>
    </div>
  );
}

/** A list row's field after Remove: the rows below the removed one move up, the removed row's fields go. */
function renameAfterRemove(name: string, submitter: string | null): string | null {
  const intent = parseIntakeIntent(submitter);
  if (intent?.type !== "remove") return name;
  const row = new RegExp(`^${intent.field}\\[(\\d+)\\](.*)$`).exec(name);
  if (!row) return name;
  const index = Number(row[1]);
  if (index === intent.index) return null;
  return index > intent.index ? `${intent.field}[${index - 1}]${row[2]}` : name;
}

/** The step was saved elsewhere since this page loaded: what differs, and the customer's choice. */
function ConflictNotice({ conflict, step, keepMine }: { conflict: Conflict; step: number; keepMine: () => void }) {
  return (
    <div className="flash flash-error conflict" role="alert">
      <p>
        <strong>{INTAKE_CONFLICT.title}</strong> {INTAKE_CONFLICT.lead}
      </p>
      {conflict.fields.length ? (
        <dl>
          {conflict.fields.map((f) => (
            <div key={f.field}>
              <dt>{fieldLabel(f.field) ?? f.field}</dt>
              <dd>
                Saved: {f.saved || "(empty)"}
                <br />
                This page: {f.yours || "(empty)"}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      <p className="actions">
        <button type="submit" name="intent" value={INTENT_VALUES.stay} className="button" onClick={keepMine}>
          Keep this page's answers
        </button>{" "}
        <Link to={`/intake-form/${step}`} reloadDocument className="button">
          Show the saved answers
        </Link>
      </p>
    </div>
  );
}

/** The first failing field's message, naming the field. */
function firstFieldError(errors: Record<string, string[] | undefined>): string | undefined {
  const first = Object.entries(errors).find(([, messages]) => messages?.length);
  return first ? namedError(first[0], first[1]![0]) : undefined;
}

function StepButtons({ step, busy, previewMissing }: { step: number; busy: boolean; previewMissing: string | null }) {
  const consents = REQUIRED_CONSENTS.map((name) => useLiveValue(name)); // eslint-disable-line react-hooks/rules-of-hooks -- fixed list
  const byHand = useLiveValue("aiChoice") === AI_CHOICE.byHand;
  const hydrated = useHydrated();
  // Without JavaScript the server refuses missing consents; with it, the button waits for the ticks (unless AI is opted out).
  const consentMissing = hydrated && step === SPECIAL_STEPS.consent && !byHand && consents.some((v) => v !== "on");
  const blocked = (step === SPECIAL_STEPS.preview && Boolean(previewMissing)) || consentMissing;
  return (
    <div className="intake-nav">
      <button
        type="submit"
        name="intent"
        value={INTENT_VALUES.back}
        className="button"
        disabled={step === FIRST_STEP}
        formNoValidate
      >
        Back
      </button>
      <button type="submit" name="intent" value={INTENT_VALUES.saveExit} className="button" formNoValidate>
        Save &amp; Exit
      </button>
      {step < TOTAL_STEPS ? (
        <button
          type="submit"
          name="intent"
          value={INTENT_VALUES.next}
          className="button button-primary"
          disabled={busy || blocked}
          aria-disabled={blocked || undefined}
        >
          {step === SPECIAL_STEPS.preview && previewMissing ? INTAKE_MESSAGES.completeRequired : "Next Step"}
        </button>
      ) : (
        <button
          type="submit"
          name="intent"
          value={INTENT_VALUES.submit}
          className="button button-primary"
          disabled={busy}
        >
          {busy ? "Submitting..." : "Submit Request"}
        </button>
      )}
    </div>
  );
}

/** An unknown step (/intake-form/15, /intake-form/x) is the site's not-found page; anything else the general boundary. */
export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <NotFound /> }} />;
}
