import { changedFields, stepAnswerFields, submittedAnswers, type Answers } from "../intake/answers";
import { toCamel, type StoredSubmission } from "../intake/data";
import { AI_CHOICE, AI_CHOICES, choiceLabel, RETENTION_PERIODS, type Option } from "../intake/options";
import { STEPS } from "../intake/steps";

/*
 * The admin's Brief tab: every intake answer, grouped by the form's 14 steps, in the customer's
 * words (the form's own labels, a choice by the label the form showed), lists as lists, web
 * addresses as links, empty answers marked, and after a re-submission what changed since the
 * previous one (the same diff as the business's "what changed" e-mail: intake/answers.ts).
 * Unlike the AI prompt it shows the real answers: the builder needs them.
 */

/** One answer as the brief shows it. */
export type BriefValue =
  | { kind: "empty" }
  | { kind: "text"; text: string }
  | { kind: "link"; href: string }
  | { kind: "list"; items: BriefValue[] }
  /** A group of labelled parts (social media), or one row of a list editor (a service, a photo). */
  | { kind: "group"; parts: BriefPart[] }
  | { kind: "rows"; rows: { title: string; parts: BriefPart[] }[] };
export type BriefPart = { label: string; value: BriefValue };
export type BriefAnswer = BriefPart & { field: string; changed: boolean };
export type BriefStep = { number: number; name: string; answers: BriefAnswer[]; changed: boolean };

export type BriefView =
  | { state: "no-submission" }
  /** The customer's data was deleted (privacy): the brief says so and shows nothing else. */
  | { state: "deleted" }
  | { state: "ready"; steps: BriefStep[]; resubmitted: boolean; changedCount: number };

/**
 * The form's words (domain/intake/labels.ts), given rather than imported: the admin's order page imports this
 * module's messages, and the labels would ship to its browser with them.
 */
export type BriefWords = {
  /** A field's label by its form name ("businessName", "socialLinks.facebook"). */
  label: (path: string) => string | undefined;
  /** The list editors' rows: each row's name and its boxes. */
  rows: Partial<
    Record<
      string,
      { itemLabel: string; fields: readonly { key: string; label: string; options?: readonly Option[] }[] }
    >
  >;
};

export const BRIEF_MESSAGES = {
  empty: "Not answered",
  deleted: "This order's intake data was deleted at the customer's request. Nothing of it is kept.",
  changed: "Changed",
  resubmitted: (n: number) =>
    n === 0
      ? "The customer submitted the form again without changing an answer."
      : `The customer submitted the form again: ${n} answer${n === 1 ? "" : "s"} changed since the previous submission, marked "Changed".`,
  noAnswers: "Nothing to answer on this step: it shows the customer what AI would see.",
  logoUploaded: "Uploaded (see the customer's files)",
} as const;

const EMPTY: BriefValue = { kind: "empty" };
const yesNo = (v: boolean): BriefValue => ({ kind: "text", text: v ? "Yes" : "No" });

/** A web address the customer typed, as a link only when it is http or https (never javascript: or data:). */
function textOrLink(text: string): BriefValue {
  const trimmed = text.trim();
  if (/^https?:\/\/\S+$/i.test(trimmed)) {
    try {
      const url = new URL(trimmed);
      if (url.protocol === "http:" || url.protocol === "https:") return { kind: "link", href: url.href };
    } catch {
      // Not a URL after all: shown as typed.
    }
  }
  return { kind: "text", text };
}

const isEmpty = (v: BriefValue): boolean =>
  v.kind === "empty" ||
  (v.kind === "list" && v.items.length === 0) ||
  (v.kind === "group" && v.parts.every((p) => isEmpty(p.value))) ||
  (v.kind === "rows" && v.rows.length === 0);

/** A plain value: a yes/no, a choice by its label, a link or text; nothing typed is empty. */
function plainValue(field: string, value: unknown, options?: readonly Option[]): BriefValue {
  if (value === null || value === undefined) return EMPTY;
  if (typeof value === "boolean") return yesNo(value);
  if (value instanceof Date) return { kind: "text", text: value.toISOString().slice(0, 10) };
  if (typeof value !== "string" && typeof value !== "number") return EMPTY;
  const text = String(value);
  if (!text.trim()) return EMPTY;
  const choice = options ? (options.find((o) => o.value === text)?.label ?? text) : choiceLabel(field, text);
  return choice !== undefined ? { kind: "text", text: choice } : textOrLink(text);
}

function rowsValue(field: string, rows: unknown[], words: BriefWords): BriefValue {
  const editor = words.rows[toCamel(field)];
  if (!editor) return { kind: "list", items: rows.map((r) => plainValue(field, r)).filter((v) => !isEmpty(v)) };
  return {
    kind: "rows",
    rows: rows.map((row, i) => {
      const cells = (row ?? {}) as Record<string, unknown>;
      // A photo is named by its alt text, as the builder will use it.
      const alt = field === "photo_metadata" && typeof cells.altText === "string" ? cells.altText.trim() : "";
      return {
        title: `${editor.itemLabel} ${i + 1}${alt ? `: ${alt}` : ""}`,
        parts: editor.fields.map((f) => ({
          label: f.label,
          value: plainValue(`${field}.${f.key}`, cells[f.key], f.options),
        })),
      };
    }),
  };
}

/** One stored answer as the brief shows it. */
function answerValue(field: string, value: unknown, words: BriefWords): BriefValue {
  if (field === "logo_key") return value ? { kind: "text", text: BRIEF_MESSAGES.logoUploaded } : EMPTY;
  if (Array.isArray(value)) {
    const objects = value.some((v) => v !== null && typeof v === "object");
    if (objects) return rowsValue(field, value, words);
    return { kind: "list", items: value.map((v) => plainValue(field, v)).filter((v) => !isEmpty(v)) };
  }
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    const name = toCamel(field);
    return {
      kind: "group",
      parts: Object.entries(value as Record<string, unknown>).map(([key, v]) => ({
        label: words.label(`${name}.${key}`) ?? key,
        value: plainValue(field, v),
      })),
    };
  }
  return plainValue(field, value);
}

/** Step 12's consent record as the answers the form asked for. */
function consentAnswers(consent: unknown): [string, unknown, Option[]?][] {
  if (!consent) return [["aiChoice", null]];
  const c = consent as Record<string, unknown>;
  const choice = c.aiOptOut ? AI_CHOICE.byHand : AI_CHOICE.ai;
  return [
    ["aiChoice", choice, AI_CHOICES],
    ...(c.aiOptOut
      ? []
      : (
          [
            "allowAIDataProcessing",
            "allowDataForWebsiteGeneration",
            "understandObfuscation",
            "understandDataUsage",
          ] as const
        ).map((k): [string, unknown] => [k, c[k]])),
    ["allowShowcase", c.allowShowcase],
    ["dataRetentionPeriod", c.dataRetentionPeriod, RETENTION_PERIODS],
  ];
}

function stepAnswers(step: number, answers: Answers, changed: Set<string>, words: BriefWords): BriefAnswer[] {
  return stepAnswerFields(step).flatMap((field): BriefAnswer[] => {
    const isChanged = changed.has(field);
    if (field === "privacy_consent")
      return consentAnswers(answers[field]).map(([name, value, options]) => {
        const v = plainValue(name, value, options);
        return { field: name, label: words.label(name) ?? name, value: v, changed: isChanged };
      });
    const name = field === "logo_key" ? "logo" : toCamel(field);
    const value = answerValue(field, answers[field], words);
    return [
      {
        field,
        label: words.label(name) ?? field.replace(/_/g, " "),
        value: isEmpty(value) ? EMPTY : value,
        changed: isChanged,
      },
    ];
  });
}

/**
 * The Brief of one order's intake: its current answers (an admin's Edit Data included) step by step,
 * each marked when it changed between the previous submission and the last.
 */
export function briefView(doc: StoredSubmission | null, order: { dataDeleted: boolean }, words: BriefWords): BriefView {
  if (order.dataDeleted) return { state: "deleted" };
  if (!doc || doc.status !== "submitted") return { state: "no-submission" };
  const answers = submittedAnswers(doc);
  const resubmitted = Boolean(doc.previous_answers && doc.submitted_answers);
  const changed = new Set(resubmitted ? changedFields(doc.previous_answers, doc.submitted_answers ?? {}) : []);
  const steps = STEPS.map(({ number, name }) => {
    const list = stepAnswers(number, answers, changed, words);
    return { number, name, answers: list, changed: list.some((a) => a.changed) };
  });
  const changedCount = steps.reduce((n, s) => n + s.answers.filter((a) => a.changed).length, 0);
  return { state: "ready", steps, resubmitted, changedCount };
}
