import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { RESEND_EVENT, SendStatus } from "~/components/connection";
import { FormAlert } from "~/components/forms";
import { useHydrated, useIsPending } from "~/components/hooks";
import { LiveRegion } from "~/components/LiveRegion";
import { forgetDeviceCopy, putBack, RESTORED_MESSAGE, useDeviceCopy } from "~/components/useDeviceCopy";
import { useKeepTyping } from "~/components/useKeepTyping";
import type { IntakeData } from "~/domain/intake/data";
import { INTENT_VALUES, parseIntakeIntent } from "~/domain/intake/intents";
import { AI_CHOICE, REQUIRED_CONSENTS } from "~/domain/intake/options";
import type { StepAnswer, StepPageData } from "~/domain/intake/page";
import { overSaved } from "~/domain/intake/refused";
import { INTAKE_CONFLICT, SAVE_FIELDS, type Conflict } from "~/domain/intake/save-order";
import { FIRST_STEP, INTAKE_MESSAGES, SPECIAL_STEPS, stepMeta, STEPS, TOTAL_STEPS } from "~/domain/intake/steps";
import { fieldId, StepFormContext, useLiveValue } from "./fields";
import { fieldLabel, namedError } from "~/domain/intake/labels";
import { NeighbourStepModules } from "./NeighbourStepModules";
import type { StepUploads } from "./uploads";
import { nextSeq, useAutosave, WRITER } from "./useAutosave";
import { useStepCheck } from "./useStepCheck";

/*
 * The page around an intake step's fields, shared by every step's route module (app/routes/intake-form_.N.tsx);
 * what those modules export to Remix besides (meta, when the step reloads, the error boundary) is
 * app/routes/_intake-step.tsx, and the loader and action are server/intake/step.server.ts.
 */

/** The step's extras (step 4's files, step 5's map search, step 13's preview), for the step's own fields. */
export const useStepExtras = () => useLoaderData<StepPageData>().extras;

/**
 * False while the page is drawn by the server and hydrated, true for every render after: a box asked to
 * take focus (focusAdd) does so only on a page loaded whole, never when the page's scripts redraw the
 * step. Module-wide, unlike useHydrated, which a remounted component starts again.
 */
let pageDrawn = false;
function useDrawnBefore() {
  useEffect(() => {
    pageDrawn = true;
  }, []);
  return pageDrawn;
}

/**
 * An intake step's page around its fields (the `children`, from the step's own route module): the
 * header, the form with its check, autosave, device copy, uploads and buttons, and the jump grid.
 */
export function IntakeStepPage({ children, uploads: plug }: { children: ReactNode; uploads?: StepUploads }) {
  const {
    step,
    name,
    values: saved,
    completed,
    furthest,
    savedAt,
    revision,
    savedBy,
    pageWriter,
    copyKey,
    rules,
    extras,
    focusAdd,
  } = useLoaderData<StepPageData>();
  const actionData = useActionData<StepAnswer>();
  const meta = stepMeta(step)!;
  const busy = useIsPending();
  const formId = `intake-step-${step}`;
  // The browser checks the step's rules before a post; a refused post's messages replace its own.
  const check = useStepCheck(formId, rules, actionData?.result?.error);
  // A refused post keeps what was typed (only its refused answers when the rest was saved: over the saved step).
  const typed = actionData?.result?.initialValue as IntakeData | undefined;
  const values = typed && actionData?.savedBeside ? overSaved(saved, typed) : (typed ?? saved);
  // Errors of what was saved (a new photo without alt text), shown on their fields beside the saved values.
  const savedErrors = actionData?.fieldErrors ?? {};
  const autosave = useAutosave(formId, step, savedAt, plug?.pending);
  // Typing made while Add, Remove or Enter is in flight is put back into the re-rendered step; a second Remove waits.
  useKeepTyping(formId, savedAt, renameAfterRemove, isRemove);
  // "Keep this page's answers": this page's saves are then based on the revision the conflict named. In state,
  // not only in the box: React sets a hidden box back to its value on every render (a resend reads it later).
  const [keptRevision, setKeptRevision] = useState(0);
  const basedOnRevision = Math.max(revision, keptRevision);
  // What is typed is kept on this device, per order and step, until the server has it. A copy typed on a page
  // based on an older save, when someone else has saved the step since, is not put back: it is shown as a conflict.
  const copy = `intake:${copyKey}:${step}`;
  const device = useDeviceCopy(formId, copy, savedAt, {
    base: JSON.stringify([basedOnRevision, WRITER]),
    isCurrent: (base) => {
      const [copyRevision, copyWriter] = JSON.parse(base) as [number, string];
      return copyRevision === revision || copyWriter === savedBy;
    },
  });
  const conflict =
    actionData?.conflict ?? autosave.conflict ?? (device.held ? { revision, fields: device.held.fields } : undefined);
  // An autosave that landed: the server has the step, so the device keeps no copy of it (the
  // next keystroke makes a new one).
  useEffect(() => {
    if (autosave.lastSaved) forgetDeviceCopy(copy);
  }, [autosave.lastSaved, copy]);
  // Step 4's files upload on their own, with progress. Only step 4's route module brings that code (`uploads`),
  // so no other step ships it; a route's page keeps the same hook for its whole life (the hooks' order holds).
  const useStepUploads = plug?.use ?? noUploads;
  const uploads = useStepUploads(formId);
  const hydrated = useHydrated();
  const drawnBefore = useDrawnBefore();
  const basedOn = useRef<HTMLInputElement>(null);
  const seqField = useRef<HTMLInputElement>(null);
  // A post sent again after a dropped link carries what the form holds now: it is this page's newest save.
  useEffect(() => {
    const form = document.getElementById(formId);
    const newer = () => seqField.current && (seqField.current.value = nextSeq());
    form?.addEventListener(RESEND_EVENT, newer);
    return () => form?.removeEventListener(RESEND_EVENT, newer);
  }, [formId, savedAt]);
  // Keep posts exactly the fields its notice listed: a box left empty and not listed is not sent (the autosave
  // that met the conflict sends no empty box, so the notice never compared it; sent, it would erase the saved answer).
  const keepOnly = useRef<Set<string> | null>(null);
  useEffect(() => {
    keepOnly.current = null;
    const form = document.getElementById(formId);
    const onlyListed = (event: Event) => {
      const listed = keepOnly.current;
      if (!listed) return;
      const data = (event as FormDataEvent).formData;
      const kept = [...data].filter(([name, value]) => value !== "" || listed.has(name.split(/[[.]/)[0]));
      for (const name of new Set(data.keys())) data.delete(name);
      for (const [name, value] of kept) data.append(name, value);
    };
    form?.addEventListener("formdata", onlyListed);
    return () => form?.removeEventListener("formdata", onlyListed);
  }, [formId, savedAt]);
  const errors = { ...check.errors, ...savedErrors };
  // The alert names every field that failed, each a link to it (WCAG 3.3.1).
  const failed = Object.entries(errors)
    .filter(([, messages]) => messages?.length)
    .map(([name, messages]) => ({ id: fieldId(name), label: fieldLabel(name) ?? name, errors: messages }));

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

      <StepFormContext.Provider value={{ formId, values, errors, focusAdd: drawnBefore ? null : focusAdd }}>
        <Form
          method="post"
          id={formId}
          onSubmit={(event) => {
            if (seqField.current) seqField.current.value = nextSeq(); // this save is newer than every one before
            if (!(event.nativeEvent as SubmitEvent).submitter?.hasAttribute(KEEP_BUTTON)) keepOnly.current = null;
            check.onSubmit(event);
          }}
          key={savedAt ?? "new"}
          encType={step === SPECIAL_STEPS.uploads ? "multipart/form-data" : undefined}
          // Add, Remove and Enter keep the typing made while they are out (useKeepTyping); every other press locks the step.
          data-keeps-typing={KEEPS_TYPING}
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
            message={check.formError ?? firstFieldError(check.errors) ?? uploads?.refused ?? actionData?.notice}
            failed={failed.length > 1 || check.formError ? failed : []}
          />
          {/* What this save is based on and who writes it (domain/intake/save-order.ts): without JavaScript, this page load. */}
          <input ref={basedOn} type="hidden" name={SAVE_FIELDS.basedOn} value={basedOnRevision} />
          <input type="hidden" name={SAVE_FIELDS.writer} value={hydrated ? WRITER : pageWriter} />
          {/* No value of React's: set when a save leaves (a defaultValue would be put back on every render). */}
          {hydrated ? <input ref={seqField} type="hidden" name={SAVE_FIELDS.seq} /> : null}
          {conflict ? (
            <ConflictNotice
              conflict={conflict}
              step={step}
              keepMine={(form) => {
                // The box now (this click's post reads it before React renders), the state for every later render.
                if (basedOn.current) basedOn.current.value = String(conflict.revision);
                setKeptRevision(conflict.revision);
                // A copy from this device: its answers go into the boxes now, so this click's post carries them.
                if (device.held) putBack(form, device.held.entries);
                keepOnly.current = new Set(conflict.fields.map((f) => f.field));
              }}
              showSaved={() => forgetDeviceCopy(copy)}
            />
          ) : null}
          {device.restored ? <p className="flash flash-info">{RESTORED_MESSAGE}</p> : null}
          {children}
          {plug && uploads ? <plug.List {...uploads} /> : null}
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
                    form={formId}
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
        {hydrated ? <StepRoutes /> : null}
        <NeighbourStepModules step={step} />
      </StepFormContext.Provider>
    </div>
  );
}

/**
 * Every step's address as a link nobody sees, so that Remix discovers the steps' routes as soon as
 * the page runs (one /__manifest request for all fourteen, while the person reads): Next, Back and
 * the jump grid post, and the page their answer redirects to would otherwise cost a round trip
 * to look up its route before its data is asked for (lazy route discovery).
 */
function StepRoutes() {
  return (
    <p hidden>
      {STEPS.map((s) => (
        <Link key={s.number} to={`/intake-form/${s.number}`} discover="render" tabIndex={-1}>
          {s.name}
        </Link>
      ))}
    </p>
  );
}

/** The steps without files: no uploads. */
const noUploads = (_formId: string): null => null;

/** The presses whose typing useKeepTyping keeps (components/connection.tsx locks the form for every other). */
const KEEPS_TYPING = `${INTENT_VALUES.stay} ${INTENT_VALUES.remove("", "").split(":")[0]}:`;
const isRemove = (submitter: string) => parseIntakeIntent(submitter)?.type === "remove";

/** A list row's field after Remove (of the item on row `removed`): the rows below it move up, its fields go. */
function renameAfterRemove(name: string, submitter: string | null, removed: number | null): string | null {
  const intent = parseIntakeIntent(submitter);
  if (intent?.type !== "remove" || removed === null) return name;
  const row = new RegExp(`^${intent.field}\\[(\\d+)\\](.*)$`).exec(name);
  if (!row) return name;
  const index = Number(row[1]);
  if (index === removed) return null;
  return index > removed ? `${intent.field}[${index - 1}]${row[2]}` : name;
}

/** Marks the conflict's "Keep this page's answers" button (its post sends only what the notice listed). */
const KEEP_BUTTON = "data-keep";

/** The step was saved elsewhere since this page loaded: what differs, and the customer's choice. */
function ConflictNotice({
  conflict,
  step,
  keepMine,
  showSaved,
}: {
  conflict: Conflict;
  step: number;
  keepMine: (form: HTMLFormElement) => void;
  showSaved: () => void;
}) {
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
        <button
          type="submit"
          name="intent"
          value={INTENT_VALUES.stay}
          className="button"
          onClick={(event) => event.currentTarget.form && keepMine(event.currentTarget.form)}
          {...{ [KEEP_BUTTON]: "" }}
        >
          Keep this page's answers
        </button>{" "}
        {/* The saved answers, not this page's typing put back from the device. */}
        <Link to={`/intake-form/${step}`} reloadDocument className="button" onClick={showSaved}>
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
