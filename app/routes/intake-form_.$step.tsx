import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Form, useActionData, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { FormAlert } from "~/components/forms";
import { useHydrated } from "~/components/hooks";
import { StepFormContext, useLiveValue } from "~/components/intake/fields";
import { StepBody } from "~/components/intake/StepBody";
import { canOpenStep, completedSteps, formValues, type IntakeData } from "~/domain/intake/data";
import { REQUIRED_CONSENTS, stepSchema, type Mode } from "~/domain/intake/schemas";
import { INTAKE_INTENTS, INTAKE_MESSAGES, parseRemoveIntent, stepMeta, STEPS, TOTAL_STEPS } from "~/domain/intake/steps";
import { aiSafeData, missingForAi } from "~/domain/privacy";
import { redirectWithFlash } from "~/server/flash.server";
import { applyBrandingUploads, loadSubmission, orderEmail, removeListItem, requireIntakeAccess, saveStep, submitIntake } from "~/server/intake.server";
import { log } from "~/server/log.server";
import { readStepForm, UPLOAD_LIMITS_TEXT } from "~/server/uploads.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `Step ${data.step}: ${data.name}` : "Intake Form"} | 24-Hour Website` },
  { name: "robots", content: "noindex" },
];

const AUTOSAVE = "autosave";
const AUTOSAVE_MS = 30_000;

function parseStep(param: string | undefined): number {
  const step = Number(param);
  if (!Number.isInteger(step) || !stepMeta(step)) throw new Response("Not Found", { status: 404 });
  return step;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const access = await requireIntakeAccess(request);
  const step = parseStep(params.step);
  const doc = await loadSubmission(access.orderId);
  const stored = (doc ?? null) as Record<string, unknown> | null;
  if (!canOpenStep(step, stored)) throw redirect(`/intake-form/${Math.max(1, Number(stored?.furthest_step ?? 1))}`);
  const values: IntakeData = {
    contactEmail: await orderEmail(access.orderId),
    needsContactForm: "yes",
    dataRetentionPeriod: "30days",
    pagesNeeded: ["Home", "Contact"],
    ...formValues(stored),
  };
  // The link box holds a link the customer gave, never the address of a logo they uploaded.
  if (stored?.logo_key) delete values.logoUrl;
  const photos = ((stored?.photo_metadata as { url: string; fileName?: string }[]) ?? []).map((p) => ({ url: p.url, fileName: p.fileName ?? "" }));
  const name = String(values.businessName ?? "").trim();
  return {
    step,
    name: stepMeta(step)!.name,
    values,
    completed: completedSteps(stored),
    furthest: Math.max(1, Number(stored?.furthest_step ?? 1)),
    savedAt: doc?.updated_at ? new Date(doc.updated_at).toISOString() : null,
    extras: {
      logo: stored?.logo_url ? { url: String(stored.logo_url), uploaded: Boolean(stored.logo_key) } : null,
      photos,
      uploadLimits: UPLOAD_LIMITS_TEXT,
      mapsSearchUrl: name
        ? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent([name, values.serviceArea].filter(Boolean).join(" "))}`
        : null,
      preview: step === 13 ? { data: aiSafeData(stored ?? {}), missing: missingForAi(stored ?? {}) } : null,
    },
  };
}

/**
 * After a step post, reload the step even when the post answered with a message
 * (a 400 that still saved uploads or other fields). Never after an autosave:
 * reloading remounts the form, which could drop keystrokes made meanwhile.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, formData, defaultShouldRevalidate }) => {
  if (formMethod?.toUpperCase() !== "POST") return defaultShouldRevalidate;
  return formData?.get("intent") !== AUTOSAVE;
};

const isKnownIntent = (intent: string) =>
  (Object.values(INTAKE_INTENTS) as string[]).includes(intent) || intent === AUTOSAVE || Boolean(parseRemoveIntent(intent)) || /^jump:\d{1,2}$/.test(intent);

const modeOf = (intent: unknown): Mode => (intent === INTAKE_INTENTS.next || intent === INTAKE_INTENTS.submit ? "next" : "draft");

export async function action({ request, params }: ActionFunctionArgs) {
  const access = await requireIntakeAccess(request);
  const step = parseStep(params.step);
  const form = await readStepForm(request);
  const intent = String(form.get("intent") ?? "");
  const submission = parseWithZod(form, { schema: stepSchema(step, modeOf(intent)) });
  if (!isKnownIntent(intent)) return data({ result: submission.reply({ formErrors: ["Unknown action. Please use the buttons on the form."] }) }, { status: 400 });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });

  const before = (await loadSubmission(access.orderId)) as Record<string, unknown> | null;
  // The jump rule holds for posts too: a step not yet reached cannot be saved or skipped past.
  if (!canOpenStep(step, before)) return redirect(`/intake-form/${Math.max(1, Number(before?.furthest_step ?? 1))}`, 303);
  const values: IntakeData = { ...submission.value };
  const remove = parseRemoveIntent(intent);
  if (remove) await removeListItem(values, remove, before);

  const extra: Record<string, unknown> = {};
  const problems: string[] = [];
  let newPhotos = 0;
  if (step === 4) newPhotos = await applyBrandingUploads(access.orderId, form, values, before, extra, problems);

  const reached = intent === INTAKE_INTENTS.next ? step + 1 : step;
  let doc;
  try {
    doc = (await saveStep(access.orderId, step, values, reached, extra)) as Record<string, unknown> | null;
  } catch (error) {
    log("error", "intake.save_failed", { order_id: access.orderId, step, reason: error instanceof Error ? error.message : String(error) });
    if (intent === AUTOSAVE) return data({ result: null, savedAt: null }, { status: 503 });
    return data({ result: submission.reply({ formErrors: [INTAKE_MESSAGES.submitFailed] }) }, { status: 503 });
  }
  // From here on the step is saved: messages go beside the saved state (reloaded), not the posted form.
  const notice = (message: string) => data({ result: null, notice: message }, { status: 400 });
  if (problems.length) return notice(problems.join(" "));
  if (intent === AUTOSAVE) return data({ result: null, savedAt: new Date().toISOString() });

  const self = `/intake-form/${step}`;
  const jump = /^jump:(\d{1,2})$/.exec(intent);
  if (jump) {
    const target = Number(jump[1]);
    return redirect(stepMeta(target) && canOpenStep(target, doc) ? `/intake-form/${target}` : self, 303);
  }
  switch (intent) {
    case INTAKE_INTENTS.back:
      return redirect(`/intake-form/${Math.max(1, step - 1)}`, 303);
    case INTAKE_INTENTS.saveExit:
      return redirectWithFlash(request, "/", { kind: "success", ...INTAKE_MESSAGES.saved }, { status: 303 });
    case INTAKE_INTENTS.next: {
      if (newPhotos > 0) {
        return notice("Please describe each new photo (alt text), then continue.");
      }
      const missing = step === 13 ? missingForAi(doc ?? {}) : null;
      if (missing) return notice(missing);
      return redirect(`/intake-form/${Math.min(TOTAL_STEPS, step + 1)}`, 303);
    }
    case INTAKE_INTENTS.submit: {
      const unfinished = [1, 2, 11, 12].filter((n) => !completedSteps(doc).includes(n));
      const missing = missingForAi(doc ?? {});
      if (unfinished.length || missing) {
        const names = unfinished.map((n) => stepMeta(n)!.name).join(", ");
        return notice([names && `Please complete: ${names}.`, missing].filter(Boolean).join(" "));
      }
      try {
        const outcome = await submitIntake(access);
        return redirectWithFlash(request, "/intake-form", { kind: "success", ...INTAKE_MESSAGES[outcome] }, { status: 303 });
      } catch (error) {
        log("error", "intake.submit_failed", { order_id: access.orderId, reason: error instanceof Error ? error.message : String(error) });
        return data({ result: null, notice: INTAKE_MESSAGES.submitFailed }, { status: 503 });
      }
    }
    default:
      return redirect(self, 303);
  }
}

export default function IntakeStep() {
  const { step, name, values: saved, completed, furthest, savedAt, extras } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const meta = stepMeta(step)!;
  const [form] = useForm({
    id: `intake-step-${step}`,
    // Conform keeps registered inputs in step with its defaults, so they must be the saved values.
    defaultValue: saved,
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: stepSchema(step, modeOf(formData.get("intent"))) }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const values = (actionData?.result?.initialValue as IntakeData | undefined) ?? saved; // a refused post keeps what was typed
  const lastSaved = useAutosave(form.id, step, savedAt);
  const busy = navigation.state !== "idle";

  return (
    <div className="wrap section">
      <header className="intake-header">
        <progress value={step} max={TOTAL_STEPS} aria-label={`Step ${step} of ${TOTAL_STEPS}`} />
        <p>
          Step {step} of {TOTAL_STEPS}
        </p>
        <h1>{name}</h1>
        <p className="badges">
          <span className="badge badge-muted">About {meta.minutes} min</span>
          <span className="badge">{meta.category}</span>
          {lastSaved ? <span className="hint">Last saved {lastSaved}</span> : null}
        </p>
      </header>

      <StepFormContext.Provider value={{ formId: form.id, values, errors: form.allErrors }}>
        <Form
          method="post"
          {...getFormProps(form)}
          key={savedAt ?? "new"}
          encType={step === 4 ? "multipart/form-data" : undefined}
          noValidate
          className="card intake-form"
        >
          {/* Enter in a field saves the step and stays (adds a list item), never jumps ahead. */}
          <button type="submit" name="intent" value={INTAKE_INTENTS.stay} className="hidden-default" tabIndex={-1} aria-hidden="true">
            Save
          </button>
          <FormAlert message={form.errors?.[0] ?? Object.values(form.allErrors).flat()[0] ?? (actionData && "notice" in actionData ? actionData.notice : undefined)} />
          <StepBody step={step} extras={extras} />
          <StepButtons step={step} busy={busy} previewMissing={extras.preview?.missing ?? null} />
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
                    value={`jump:${s.number}`}
                    disabled={!allowed}
                    aria-current={s.number === step ? "step" : undefined}
                    className={completed.includes(s.number) ? "done" : undefined}
                  >
                    {s.number}. {s.name}
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

function StepButtons({ step, busy, previewMissing }: { step: number; busy: boolean; previewMissing: string | null }) {
  const consents = REQUIRED_CONSENTS.map((name) => useLiveValue(name)); // eslint-disable-line react-hooks/rules-of-hooks -- fixed list
  const hydrated = useHydrated();
  // Without JavaScript the server refuses missing consents; with it, the button waits for the ticks.
  const consentMissing = hydrated && step === 12 && consents.some((v) => v !== "on");
  const blocked = (step === 13 && Boolean(previewMissing)) || consentMissing;
  return (
    <div className="intake-nav">
      <button type="submit" name="intent" value={INTAKE_INTENTS.back} className="button" disabled={step === 1} formNoValidate>
        Back
      </button>
      <button type="submit" name="intent" value={INTAKE_INTENTS.saveExit} className="button" formNoValidate>
        Save &amp; Exit
      </button>
      {step < TOTAL_STEPS ? (
        <button type="submit" name="intent" value={INTAKE_INTENTS.next} className="button button-primary" disabled={busy || blocked} aria-disabled={blocked || undefined}>
          {step === 13 && previewMissing ? INTAKE_MESSAGES.completeRequired : "Next Step"}
        </button>
      ) : (
        <button type="submit" name="intent" value={INTAKE_INTENTS.submit} className="button button-primary" disabled={busy}>
          {busy ? "Submitting..." : "Submit Request"}
        </button>
      )}
    </div>
  );
}

/**
 * With JavaScript: saves the step every 30 s while it is open, only when
 * something changed since the last save, never two at once. Failures are only
 * logged (spec). Returns the time of the last save.
 */
function useAutosave(formId: string, step: number, savedAt: string | null) {
  const fetcher = useFetcher<typeof action>();
  // A ref, so re-renders never restart the timer or move the baseline past unsaved edits.
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const last = useRef<string | null>(null);
  const [lastSaved, setLastSaved] = useState<string | null>(null);
  useEffect(() => {
    const serialize = () => {
      const el = document.getElementById(formId) as HTMLFormElement | null;
      if (!el) return null;
      const params = new URLSearchParams();
      // Empty boxes are not content: conditional fields appearing or vanishing must not count as a change.
      for (const [k, v] of new FormData(el)) if (typeof v === "string" && v !== "" && k !== "intent") params.append(k, v);
      return params;
    };
    last.current = serialize()?.toString() ?? null;
    const timer = setInterval(() => {
      const params = serialize();
      if (!params || fetcherRef.current.state !== "idle" || params.toString() === last.current) return;
      last.current = params.toString();
      params.set("intent", AUTOSAVE);
      fetcherRef.current.submit(params, { method: "post", action: `/intake-form/${step}` });
    }, AUTOSAVE_MS);
    return () => clearInterval(timer);
  }, [formId, step, savedAt]);
  useEffect(() => {
    const at = fetcher.data && "savedAt" in fetcher.data ? fetcher.data.savedAt : null;
    if (at) setLastSaved(new Date(at).toLocaleTimeString("en-AU", { hour: "numeric", minute: "2-digit" }));
    else if (fetcher.state === "idle" && fetcher.data) console.warn("Autosave failed");
  }, [fetcher.data, fetcher.state]);
  return lastSaved;
}
