import { toSnake, type StoredSubmission } from "./data";
import { stepSchema } from "./schemas";
import { SPECIAL_STEPS, STEPS } from "./steps";

/*
 * The customer's answers, step by step, as stored: what a submission snapshots
 * (`submitted_answers`, the one before it `previous_answers`), what the business
 * is told changed after a re-submission, and what the admin's Brief lists.
 */

/** A submission's answers: each stored field of a step, by its stored (snake_case) name. */
export type Answers = Record<string, unknown>;

/** The stored fields of one step's answers, in the form's order (read from the step's own schema). */
export function stepAnswerFields(step: number): string[] {
  if (step === SPECIAL_STEPS.consent) return ["privacy_consent"]; // stored as one consent record
  let schema: unknown = stepSchema(step, "draft");
  while (isPipe(schema)) schema = schema.def.in;
  const shape = (schema as { def?: { shape?: Record<string, unknown> } }).def?.shape ?? {};
  const fields = Object.keys(shape).map(toSnake);
  return step === SPECIAL_STEPS.uploads ? ["logo_key", ...fields] : fields;
}

const isPipe = (s: unknown): s is { def: { type: "pipe"; in: unknown } } =>
  typeof s === "object" && s !== null && (s as { def?: { type?: string } }).def?.type === "pipe";

/** The answers a submission snapshots: every step's fields (the consent without its save time). */
export function submittedAnswers(doc: StoredSubmission): Answers {
  const out: Answers = {};
  for (const { number } of STEPS)
    for (const field of stepAnswerFields(number)) out[field] = doc[field as keyof StoredSubmission] ?? null;
  const consent = doc.privacy_consent;
  if (consent) out.privacy_consent = { ...consent, timestamp: undefined };
  return out;
}

/** A value's text with object keys in order, so two equal answers compare equal whatever order the store gave. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** The stored fields whose answer differs between two submissions (none before a first one). */
export function changedFields(before: Answers | null | undefined, after: Answers): string[] {
  if (!before) return [];
  return Object.keys(after).filter((field) => canonical(before[field] ?? null) !== canonical(after[field] ?? null));
}

/** The steps with a changed answer, by name, in the form's order. */
export function changedStepNames(before: Answers | null | undefined, after: Answers): string[] {
  const changed = new Set(changedFields(before, after));
  return STEPS.filter((s) => stepAnswerFields(s.number).some((f) => changed.has(f))).map((s) => s.name);
}
