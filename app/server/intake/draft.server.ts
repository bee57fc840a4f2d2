import { randomBytes } from "node:crypto";
import { intakeProgress } from "~/domain/completeness";
import { storedFields, toSnake, type IntakeValues, type StoredSubmission } from "~/domain/intake/data";
import { changedStepNames, submittedAnswers } from "~/domain/intake/answers";
import { isIdList, postedIds, REMEMBER_REMOVED, storedIds, type IdListField } from "~/domain/intake/list-ids";
import { aiSafeData, consentAuditAction, privacySummary } from "~/domain/privacy";
import { orderIncludes, type OrderIncludes } from "~/domain/order-includes";
import { claimOnce, isDuplicateKeyError } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { log } from "~/server/log.server";
import { intakeConfirmation, intakeNotice } from "~/server/mail/messages.server";
import { queueMail } from "~/server/mail/outbox.server";
import { startClock } from "~/server/delivery-clock.server";
import { filesTurn, revisionTurn, versionOf, writeInTurn } from "~/server/intake/turns.server";
import { IntakeSubmission, IntakeToken, Order, PrivacyAuditLog } from "~/server/models/index.server";
import { markTokenUsed, type TokenAccess } from "~/server/tokens.server";

/*
 * The intake submission of an order (rapid_website_submissions), keyed by the
 * order id: every read and save on a step post goes by `_id`.
 */

/** What an order's e-mail and includes are read from. */
const BOUGHT_FIELDS = { email: 1, product_id: 1, product_name: 1, add_ons: 1 } as const;

/** A submission as read from the database (its `_id` is the order id). */
export type Submission = StoredSubmission & { _id: string };

export async function loadSubmission(orderId: string): Promise<Submission | null> {
  return IntakeSubmission.findById(orderId).lean<Submission>();
}

/**
 * Applies an update to the order's submission, creating the draft on the first
 * save, in one round trip. Two first saves that race both try to insert: the
 * loser's E11000 is retried as an update. `read`: the draft as the request read
 * it; when there was one it is updated without an upsert (mongoose then builds no
 * defaults for an insert, about half the app's CPU of the write), and created
 * only if it has gone since.
 */
async function upsertSubmission(
  orderId: string,
  update: Record<string, unknown>,
  read: Submission | null = null,
): Promise<void> {
  if (read && (await IntakeSubmission.updateOne({ _id: orderId }, update)).matchedCount > 0) return;
  const write = () =>
    IntakeSubmission.updateOne({ _id: orderId }, { ...update, $setOnInsert: { order_id: orderId } }, { upsert: true });
  try {
    await write();
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    await write();
  }
}

/** A page load's writer id (domain/intake/save-order.ts): its posts without JavaScript are known as one page's. */
export const newPageWriter = () => randomBytes(9).toString("base64url");

/** A new list item's id (list-ids.ts): 12 characters of [a-z0-9], made only here. */
export function newItemId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return [...randomBytes(12)].map((b) => alphabet[b % 36]).join("");
}

/** The item a Remove names, if it names one of a list editor's items. */
type Removal = { field: string; id: string } | null | undefined;

/** The `list_removed` field that remembers one more removed id of a list. */
const rememberRemoved = (before: Submission | null, field: IdListField, id: string) => ({
  [`list_removed.${field}`]: [...(before?.list_removed?.[field] ?? []).filter((r) => r !== id), id].slice(
    -REMEMBER_REMOVED,
  ),
});

/**
 * The step's lists with their items' ids (domain/intake/list-ids.ts): each
 * posted item keeps the id the server gave it, a new one gets a new id, and an
 * item posted with an id a Remove took out is left out, so a Remove is never
 * undone by a page that had not heard of it yet. Returns the values to save and
 * the fields to set beside them (each list's own path, so a save of one step
 * never touches another step's ids). `removal`: the item this post's Remove took out.
 */
export function withListIds(form: FormData, values: IntakeValues, before: Submission | null, removal?: Removal) {
  const out: Record<string, unknown> = { ...values };
  const set: Record<string, string[]> = {};
  for (const field of Object.keys(values).filter(isIdList)) {
    const list = out[field];
    if (!Array.isArray(list)) continue;
    const known = storedIds(field, before?.[toSnake(field) as keyof Submission], before?.list_ids?.[field]);
    const { ids, gone } = postedIds(form, field, known, before?.list_removed?.[field] ?? [], newItemId);
    const kept = list.filter((_, i) => !gone.has(i));
    out[field] = kept;
    set[`list_ids.${field}`] = ids.length === kept.length ? ids : kept.map(newItemId);
    if (removal?.field === field) Object.assign(set, rememberRemoved(before, field, removal.id));
  }
  return { values: out as IntakeValues, set };
}

/**
 * Removes one item, named by its id, from the stored list (a Remove whose page
 * has saved something newer since, so its other fields change nothing). An id
 * that is already gone changes nothing.
 */
export async function removeStoredItem(orderId: string, before: Submission | null, removal: Removal): Promise<void> {
  if (!before || !removal || !isIdList(removal.field)) return;
  const field: IdListField = removal.field;
  const items = before[toSnake(field) as keyof Submission];
  const ids = storedIds(field, items, before.list_ids?.[field]);
  const at = ids.indexOf(removal.id);
  if (at < 0 || !Array.isArray(items)) return;
  await saveInTurn(orderId, before, {
    $set: {
      [toSnake(field)]: items.filter((_, i) => i !== at),
      [`list_ids.${field}`]: ids.filter((_, i) => i !== at),
      ...rememberRemoved(before, field, removal.id),
    },
  });
}

/** How long a write that lost its turn waits for the winner's write to show before deciding again. */
const RACE_WAIT_MS = 5_000;

/**
 * The draft after a lost turn (SaveRaced): read again once the winning write shows (its revision or
 * files version moved on), polled with a growing pause for at most RACE_WAIT_MS. Reading at once could
 * see the draft from before the winner's write on a busy machine and lose the same turn again.
 */
export async function draftAfterRace(orderId: string, seen: Submission | null): Promise<Submission | null> {
  const version = (d: Submission | null) => `${versionOf(d, "intake-rev")}:${versionOf(d, "intake-files")}`;
  const deadline = Date.now() + RACE_WAIT_MS;
  for (let pause = 10; ; pause = Math.min(pause * 2, 250)) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    const draft = await loadSubmission(orderId);
    if (version(draft) !== version(seen) || Date.now() > deadline) return draft;
  }
}

/** Writes one update of the draft as its next revision, or throws SaveRaced when another save took it first. */
async function saveInTurn(orderId: string, before: Submission | null, update: { $set: Record<string, unknown> }) {
  const turn = revisionTurn(orderId, before);
  await writeInTurn([turn], () => upsertSubmission(orderId, { $set: { ...update.$set, revision: turn.n } }, before));
}

/**
 * Saves one step's fields (and `extra` stored fields) to the order's draft and
 * returns the draft as saved, worked out from `before` (the draft this request
 * read) rather than read back. `reached` raises the furthest step. The order's
 * intake_progress is written beside it, and only when the save changes it: a
 * step post is then six round trips, each by `_id` (the link, the draft, the
 * turn's claim and its check of the draft's counters, this save, and the turn
 * before it freed without waiting).
 */
export async function saveStep(
  orderId: string,
  step: number,
  values: IntakeValues,
  reached: number,
  before: Submission | null,
  extra: Record<string, unknown> = {},
): Promise<Submission> {
  const set = { ...storedFields(step, values), ...extra };
  const doc: Submission = {
    // A first save inserts the draft with the model's defaults (no round trip to build them).
    ...(before ?? new IntakeSubmission({ _id: orderId, order_id: orderId }).toObject<Submission>()),
    // mongoose leaves a field that is undefined in an update as it was stored.
    ...Object.fromEntries(Object.entries(set).filter(([, value]) => value !== undefined)),
    furthest_step: Math.max(Number(before?.furthest_step ?? 0), reached),
    updated_at: new Date(),
  };
  const progress = intakeProgress(doc);
  // A save with a stamp (save-order.ts) writes its revision, and one with files their version, only in turn.
  const turns = [];
  if (typeof set.revision === "number") turns.push(revisionTurn(orderId, before));
  if (set.photo_metadata || set.logo_key !== undefined) {
    const files = filesTurn(orderId, before);
    turns.push(files);
    set.files_version = doc.files_version = files.n;
  }
  await writeInTurn(turns, () =>
    Promise.all([
      upsertSubmission(orderId, { $set: set, $max: { furthest_step: reached } }, before),
      before && progress === intakeProgress(before)
        ? null
        : Order.updateOne({ _id: orderId }, { $set: { intake_progress: progress } }),
    ]),
  );
  return doc;
}

/** Saves only these stored fields (a deletion request's flags). */
export async function saveFields(orderId: string, set: Record<string, unknown>): Promise<void> {
  await upsertSubmission(orderId, { $set: set });
}

/** Saves only these stored fields of the draft's files (files that arrived on their own, or with a refused post), in turn. */
export async function saveFiles(
  orderId: string,
  before: Submission | null,
  set: Record<string, unknown>,
): Promise<void> {
  const turn = filesTurn(orderId, before);
  await writeInTurn([turn], () => upsertSubmission(orderId, { $set: { ...set, files_version: turn.n } }, before));
}

/* Submit */

/**
 * The once-keys of a submission: one per opening of a link (a link an admin reopens after a
 * submission opens again: `reopened` on the token), and the order's first (data deletion removes them).
 */
export const intakeSubmitKey = (tokenId: string, opening: number) => `intake-submit:${tokenId}:${opening}`;
export const intakeCreatedKey = (orderId: string) => `intake-created:${orderId}`;

/**
 * Submits the intake: stores what AI may see and the consent, marks the token
 * used, writes the consent audit entry and queues the e-mails. Posted twice, or
 * twenty times at once, it has one effect: the effects belong to the one request
 * that claims this submission (an insert under a unique key: the link and its
 * opening), and only the request that made the order's first submission answers
 * "submitted"; every other answers "updated" (spec: 'Form Submitted!' / 'Form Updated!').
 * A re-submission through a reopened link is a submission of its own: the link is
 * marked used again, the customer's confirmation says isUpdate, the business is told
 * which steps changed, and the delivery clock keeps its start.
 */
export async function submitIntake(access: TokenAccess): Promise<"submitted" | "updated"> {
  const [doc, token] = await Promise.all([
    loadSubmission(access.orderId),
    IntakeToken.findById(access.tokenId, { reopened: 1 }).lean(),
  ]);
  if (!doc) throw new Error("Nothing to submit");
  const submittedAt = doc.submitted_at ?? new Date();
  // The submitted data first (an idempotent $set), so no claim below can lose it.
  await IntakeSubmission.updateOne(
    { _id: access.orderId },
    {
      $set: {
        status: "submitted",
        submitted_at: submittedAt,
        // A customer who opted out of AI (step 12) has nothing prepared for it: the site is built by hand.
        ai_safe_data: doc.ai_processing_consent ? aiSafeData(doc) : null,
        privacy_summary: privacySummary(doc),
      },
      $max: { furthest_step: 15 },
    },
  );
  // The order says its intake is finished (the dashboard reads only orders); set once, never moved.
  await Order.updateOne(
    { _id: access.orderId, intake_submitted_at: null },
    { $set: { intake_submitted_at: submittedAt } },
  );
  // The materials are in: the delivery clock starts (once; a later update does not move it).
  const deadline = await startClock(access.orderId, submittedAt);
  const opening = token?.reopened ?? 0;
  const submission = `${access.tokenId}:${opening}`;
  if (!(await claimOnce(intakeSubmitKey(access.tokenId, opening)))) return "updated"; // a repeat of this submission
  const created = await claimOnce(intakeCreatedKey(access.orderId));
  // Only this submission's winner writes its answers, keeping the previous submission's beside them.
  const answers = submittedAnswers(doc);
  const changedSteps = created ? [] : changedStepNames(doc.submitted_answers, answers);
  await IntakeSubmission.updateOne(
    { _id: access.orderId },
    { $set: { submitted_answers: answers, previous_answers: doc.submitted_answers ?? null } },
  );
  await markTokenUsed(access.tokenId);
  try {
    await PrivacyAuditLog.create({
      key: `consent:${submission}`,
      action: consentAuditAction(doc),
      order_id: access.orderId,
      privacy_level: typeof doc.privacy_level === "string" ? doc.privacy_level : "standard",
    });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }

  // The confirmation goes to the buyer, and to the step-1 contact address as well when it differs.
  const order = await Order.findById(access.orderId, BOUGHT_FIELDS).lean();
  const buyer = order?.email;
  const contact = typeof doc.contact_email === "string" ? doc.contact_email : undefined;
  const recipients = [...new Set([buyer, contact].filter((a): a is string => Boolean(a)).map((a) => a.toLowerCase()))];
  const businessName = doc.business_name ?? "your business";
  // send-intake-email (spec): the confirmation, with isUpdate for every submission after the first.
  const message = intakeConfirmation({ businessName, updated: !created, includes: orderIncludes(order ?? {}) });
  for (const [i, to] of recipients.entries()) {
    await queueMail({
      key: `intake-confirmation:${submission}${i ? `:${i}` : ""}`,
      to,
      about: { orderId: access.orderId },
      ...message,
    });
  }
  await queueMail({
    key: `intake-notice:${submission}`,
    to: getEnv().BUSINESS_EMAIL,
    replyTo: contact ?? buyer,
    about: { orderId: access.orderId },
    ...intakeNotice({
      businessName,
      orderId: access.orderId,
      updated: !created,
      changedSteps,
      deadline,
      adminUrl: `${getEnv().APP_URL}/admin/orders/${access.orderId}`,
    }),
  });
  log("info", "intake.submitted", { order_id: access.orderId, updated: !created });
  return created ? "submitted" : "updated";
}

/** The e-mail the order was paid with (prefills the intake's contact e-mail) and what it includes (one `_id` read). */
export async function orderBought(orderId: string): Promise<{ email: string | undefined; includes: OrderIncludes }> {
  const order = await Order.findById(orderId, BOUGHT_FIELDS).lean();
  return { email: order?.email, includes: orderIncludes(order ?? {}) };
}
