import { filled } from "../completeness";
import type * as z from "../zod";
import { AI_CHOICE, REQUIRED_CONSENTS } from "./options";
import { ALT_TEXT_REQUIRED, type STEP_SCHEMAS } from "./schemas";
import { ID_LISTS, storedIds, type IdListField, type ListIds } from "./list-ids";
import { REQUIRED_STEPS, SPECIAL_STEPS, TOTAL_STEPS } from "./steps";

/*
 * The intake data's types, inferred from the step schemas (schemas.ts): renaming
 * a field there renames it here, and every use of the old name fails `tsc`. The
 * stored model (server/models/intake-submission.server.ts) is checked against
 * StoredSubmission at compile time, field for field.
 */
type StepSchemas = typeof STEP_SCHEMAS;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type Flat<T> = { [K in keyof T]: T[K] };
/** A step without fields (13) has the type of `{}` with any key: it adds nothing. */
type Fields<T> = T extends unknown ? (string extends keyof T ? never : T) : never;
/** One step's schema (step `n` is index `n - 1`). */
type StepSchemaAt<I extends number> = ReturnType<StepSchemas[I]>;
type EveryStep<Which extends "input" | "output"> = Flat<
  UnionToIntersection<
    Fields<Which extends "input" ? z.input<ReturnType<StepSchemas[number]>> : z.output<ReturnType<StepSchemas[number]>>>
  >
>;

/** Every step's parsed values (what a step's schema yields), any subset of them. */
export type IntakeValues = Partial<EveryStep<"output">>;
/** A field of the intake form, as the form names it (camelCase, spec 1 section 3). */
export type IntakeField = keyof IntakeValues;
/** A field's path in a post: `businessName`, `socialLinks.facebook`, `servicesList[0].name`. */
export type IntakeFieldPath = IntakeField | `${IntakeField}.${string}` | `${IntakeField}[${number}]${string}`;
/** The form's values as the page shows and posts them (what the schemas take in: "on", "yes", rows of text). */
export type IntakeData = {
  [K in IntakeField]?: K extends keyof EveryStep<"input"> ? EveryStep<"input">[K] : unknown;
} & {
  /** The list items' ids, posted beside them (list-ids.ts). */
  listIds?: ListIds;
};

/** camelCase to snake_case, as a type: `businessName` -> `business_name`. */
type Snake<S extends string, Done extends string = ""> = S extends `${infer C}${infer Rest}`
  ? Snake<Rest, `${Done}${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}`>
  : Done;

/** A stored photo: the server's record (id, keys, URL) and the customer's details. */
export type StoredPhoto = {
  id: string;
  key: string;
  thumbKey: string | null;
  url: string;
  fileName: string;
  altText: string;
  placement: string;
  crop: string;
  priority: string;
};

/** Step 12's answers as stored: the consent record, and three fields read on their own. */
export type PrivacyConsent = {
  allowAIDataProcessing: boolean;
  allowDataForWebsiteGeneration: boolean;
  dataRetentionPeriod: string;
  allowShowcase: boolean;
  understandObfuscation: boolean;
  understandDataUsage: boolean;
  aiOptOut: boolean;
  timestamp: string;
  version: string;
};
type ConsentField = keyof z.output<StepSchemaAt<11>>;
/** The fields stored as the form names them (snake_case); step 12's and the photo rows are stored their own way. */
type StoredStepField = Exclude<IntakeField, ConsentField | "photoMetadata">;

/**
 * A parsed value as the database gives it back: the driver stores a key left undefined as null, so a
 * group's part left blank (a social platform) reads back as null. Lists are stored as parsed.
 */
type Stored<T> = T extends readonly unknown[] ? T : T extends object ? { [P in keyof T]?: Stored<T[P]> | null } : T;

/** The intake as stored (rapid_website_submissions, snake_case), any subset of its fields. */
export type StoredSubmission = {
  [K in StoredStepField as Snake<K>]?: Stored<Exclude<IntakeValues[K], undefined>> | null;
} & {
  _id?: string;
  order_id?: string;
  status?: "draft" | "submitted";
  submitted_at?: Date | null;
  furthest_step?: number;
  revision?: number;
  writer?: string | null;
  writer_seq?: number | null;
  files_version?: number;
  list_ids?: ListIds | null;
  list_removed?: ListIds | null;
  logo_key?: string | null;
  logo_thumb_key?: string | null;
  uploaded_photos?: string[];
  photo_metadata?: StoredPhoto[];
  payment_intent_id?: string | null;
  privacy_consent?: PrivacyConsent | null;
  ai_processing_consent?: boolean;
  allow_showcase?: boolean | null;
  data_retention_period?: string;
  privacy_level?: string;
  ai_safe_data?: unknown;
  privacy_summary?: unknown;
  submitted_answers?: Record<string, unknown> | null;
  previous_answers?: Record<string, unknown> | null;
  data_deletion_requested?: boolean;
  data_deletion_date?: Date | null;
  created_at?: Date;
  updated_at?: Date;
};
/** A stored field's name. */
export type StoredField = keyof StoredSubmission;

export const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const toCamel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

const PRIVACY_VERSION = "1.0";

/** The yes/no questions (stored as booleans, posted as "yes"/"no") and the lone checkboxes (posted as "on"). */
const YES_NO_FIELDS = [
  "hasDomain",
  "needsContactForm",
  "wantsReviewAutomation",
  "wantsReviewSystem",
] as const satisfies readonly IntakeField[];
const CHECKBOX_FIELDS = [
  "needsPrivacyPolicy",
  "needsTermsConditions",
  "needsFacebookDisclaimer",
  "legalPagesDisclaimer",
] as const satisfies readonly IntakeField[];

/**
 * A step's parsed values as the $set that stores them. Every field of the step is
 * written, so clearing a field clears it; empty optional text becomes null.
 * Step 12 is stored as one consent record; step 4's photo rows are stored by the
 * uploads code (domain/intake/branding.ts decides them, server/intake/save.server.ts writes them).
 */
export function storedFields(step: number, values: IntakeValues, now = new Date()): StoredSubmission {
  if (step === SPECIAL_STEPS.consent) {
    const consent: PrivacyConsent = {
      allowAIDataProcessing: Boolean(values.allowAIDataProcessing),
      allowDataForWebsiteGeneration: Boolean(values.allowDataForWebsiteGeneration),
      dataRetentionPeriod: String(values.dataRetentionPeriod ?? "30days"),
      allowShowcase: Boolean(values.allowShowcase),
      understandObfuscation: Boolean(values.understandObfuscation),
      understandDataUsage: Boolean(values.understandDataUsage),
      // The customer chose a site built by hand: no AI prompt is ever generated for this order.
      aiOptOut: values.aiChoice === AI_CHOICE.byHand,
      timestamp: now.toISOString(),
      version: PRIVACY_VERSION,
    };
    return {
      privacy_consent: consent,
      ai_processing_consent: consent.allowAIDataProcessing,
      allow_showcase: consent.allowShowcase,
      data_retention_period: consent.dataRetentionPeriod,
    };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === "photoMetadata") continue;
    out[toSnake(key)] = value === undefined || value === "" ? null : value;
  }
  return out as StoredSubmission;
}

/** The stored submission as form values, for prefilling every step. */
export function formValues(doc: StoredSubmission | null): IntakeData {
  if (!doc) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (key === "_id" || key === "__v" || value === null || value === undefined) continue;
    out[toCamel(key)] = value;
  }
  const form = out as IntakeData;
  const consent = doc.privacy_consent;
  if (consent) {
    for (const k of [...REQUIRED_CONSENTS, "allowShowcase"] as const) form[k] = consent[k] ? "on" : undefined;
    form.dataRetentionPeriod = consent.dataRetentionPeriod as IntakeData["dataRetentionPeriod"];
    form.aiChoice = consent.aiOptOut ? AI_CHOICE.byHand : AI_CHOICE.ai;
  }
  for (const k of YES_NO_FIELDS) {
    if (typeof out[k] === "boolean") out[k] = out[k] ? "yes" : "no";
  }
  for (const k of CHECKBOX_FIELDS) form[k] = out[k] ? "on" : undefined;
  // Every list's item ids, as stored (or made from the items, for a list stored without them).
  form.listIds = Object.fromEntries(
    (Object.keys(ID_LISTS) as IdListField[]).map((f) => [
      f,
      storedIds(f, doc[toSnake(f) as keyof StoredSubmission], doc.list_ids?.[f]),
    ]),
  );
  form.servicesList = (doc.services_list ?? []).map((s) => ({
    ...s,
    prominent: s.prominent ? "on" : undefined,
    showPricing: s.showPricing ? "on" : undefined,
  }));
  return form;
}

/** Each stored photo still without alt text, as its field's error ("photoMetadata[0].altText"), in the form's row order. */
export function photosWithoutAltErrors(doc: StoredSubmission | null): Record<string, string[]> {
  return Object.fromEntries(
    (doc?.photo_metadata ?? []).flatMap((p, i) =>
      p.altText ? [] : [[`photoMetadata[${i}].altText`, [ALT_TEXT_REQUIRED]]],
    ),
  );
}

/**
 * Which steps are done, by the rules of spec 1 section 4 (read from the stored
 * data, so reopening the form marks them the same way). Steps 13 and 14 have no
 * data of their own: they are done once the customer has moved past them.
 */
export function completedSteps(doc: StoredSubmission | null): number[] {
  if (!doc) return [];
  const d = doc;
  const rules: [number, boolean][] = [
    [1, filled(d.business_name) && filled(d.contact_email) && filled(d.contact_phone)],
    [2, filled(d.website_purpose)],
    [3, filled(d.services_list)],
    [4, filled(d.brand_colors) || filled(d.style_preference) || filled(d.uploaded_photos)],
    [5, filled(d.primary_domain) || filled(d.target_keywords) || filled(d.social_links)],
    [6, filled(d.testimonials) || filled(d.review_links) || filled(d.google_business_url)],
    [7, filled(d.pages_needed)],
    [8, filled(d.headline) || filled(d.key_points) || filled(d.existing_content)],
    [
      9,
      Boolean(
        d.needs_privacy_policy || d.needs_terms_conditions || d.needs_facebook_disclaimer || d.legal_pages_disclaimer,
      ),
    ],
    [10, filled(d.booking_system) || filled(d.google_analytics_id) || filled(d.staff_bios)],
    [11, filled(d.package_selected)],
    [12, d.allow_showcase !== null && d.allow_showcase !== undefined],
    [SPECIAL_STEPS.preview, Number(d.furthest_step ?? 0) > SPECIAL_STEPS.preview],
    [14, d.status === "submitted"],
  ];
  return rules.filter(([, done]) => done).map(([n]) => n);
}

/** The required steps (steps.ts) not yet complete: Submit waits for them. */
export function unfinishedRequiredSteps(doc: StoredSubmission | null): number[] {
  const done = completedSteps(doc);
  return REQUIRED_STEPS.filter((n) => !done.includes(n));
}

/** The furthest step reached with Next (1 before anything is saved). */
export function furthestStep(doc: StoredSubmission | null): number {
  return Math.min(TOTAL_STEPS, Math.max(1, Number(doc?.furthest_step ?? 1) || 1));
}

/** The jump rule: a step may be opened when it is done or not beyond the furthest step reached. */
export function canOpenStep(step: number, doc: StoredSubmission | null): boolean {
  return step <= furthestStep(doc) || completedSteps(doc).includes(step);
}
