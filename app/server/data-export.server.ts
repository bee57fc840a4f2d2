import { ROUNDS, shortId } from "~/domain/orders";
import { absoluteUrl } from "./env.server";
import { log } from "./log.server";
import { loadSubmission, type Submission } from "~/server/intake/draft.server";
import { Order, OutboxMessage, PrivacyAuditLog, RevisionFeedback } from "./models/index.server";
import { consumeRateLimit, type RateLimit } from "./rate-limit.server";
import { reminderHistory } from "./reminders.server";

/** A customer may download their data a few times an hour; more is a script. */
export const EXPORT_LIMIT: RateLimit = { name: "data-export", max: 10, windowMs: 60 * 60_000 };

/** Internal bookkeeping that says nothing about the customer: storage keys, hashes, derived copies. */
const INTERNAL_FIELDS = new Set([
  "_id",
  "__v",
  "order_id",
  "logo_key",
  "logo_thumb_key",
  "ai_safe_data",
  "privacy_summary",
  "submitted_answers",
  "previous_answers",
  "payment_intent_id",
]);
const MAX_EMAILS = 200;

/**
 * E-mailed links carry access tokens (intake, order status, confirmation, reset); a downloaded file that lies
 * around must not open anything, so every token in a message's text is removed.
 */
const withoutTokens = (text: string) => text.replace(/((?:access_)?token=)[^\s&"'<>)\]]+/g, "$1[removed]");

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** An uploaded file's link as the customer can open it (a path on this site, made absolute). */
function fileLink(url: unknown): unknown {
  return typeof url === "string" && url.startsWith("/") ? absoluteUrl(url) : url;
}

function intakeAnswers(doc: Submission) {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (INTERNAL_FIELDS.has(key)) continue;
    out[key] = value instanceof Date ? value.toISOString() : value;
  }
  out.logo_url = fileLink(doc.logo_url);
  out.uploaded_photos = (doc.uploaded_photos ?? []).map(fileLink);
  out.photo_metadata = (doc.photo_metadata ?? []).map(({ key: _key, thumbKey: _thumb, ...rest }) => ({
    ...rest,
    url: fileLink(rest.url),
  }));
  return out;
}

/**
 * Everything we hold about one order, for its customer: the order, the intake
 * answers, consents and the privacy log, links to the uploaded files, the
 * e-mails sent to them, revision feedback and reminders. Writes a `data_export`
 * audit entry. The caller has checked that the requester owns the order.
 */
export async function exportOrderData(input: { orderId: string; requestedBy: "token" | "account" }) {
  const order = await Order.findById(input.orderId).lean();
  if (!order) return null;
  const submission = await loadSubmission(input.orderId);
  const [emails, feedback, audit, reminders] = await Promise.all([
    // The mail recorded as being about this order when it was queued: never chosen by address, since the
    // customer types the intake's contact address and could name anyone's (the business's, another customer's).
    OutboxMessage.find(
      { order_id: input.orderId },
      { to: 1, subject: 1, text: 1, status: 1, created_at: 1, sent_at: 1 },
    )
      .sort({ created_at: -1 })
      .limit(MAX_EMAILS)
      .lean(),
    RevisionFeedback.find({ order_id: input.orderId }).sort({ round: 1 }).lean(),
    PrivacyAuditLog.find({ order_id: input.orderId }).sort({ timestamp: 1 }).lean(),
    reminderHistory(input.orderId),
  ]);

  await PrivacyAuditLog.create({
    action: "data_export",
    order_id: input.orderId,
    privacy_level: submission?.privacy_level ?? "standard",
    reason: `Customer download (${input.requestedBy})`,
  });
  log("info", "privacy.data_exported", { order_id: input.orderId, by: input.requestedBy });

  const data = {
    exported_at: new Date().toISOString(),
    about: "Everything 24-Hour Website holds about this order. Uploaded files are linked, not included.",
    order: {
      id: order._id,
      email: order.email,
      status: order.status,
      product: order.product_name,
      amount_total_cents: order.amount_total,
      amount_paid_cents: order.amount_paid,
      currency: order.currency,
      add_ons: order.add_ons.map((a) => ({ id: a.id, name: a.name, price_cents: a.price })),
      coupon_code: order.coupon_code,
      discount_cents: order.discount,
      created_at: iso(order.created_at as Date),
      paid_at: iso(order.paid_at),
      draft_url: order.draft_url,
      intake_progress: order.intake_progress,
    },
    intake: submission ? intakeAnswers(submission) : null,
    consents: submission
      ? {
          privacy_consent: submission.privacy_consent,
          ai_processing_consent: submission.ai_processing_consent,
          allow_showcase: submission.allow_showcase,
          data_retention_period: submission.data_retention_period,
          privacy_level: submission.privacy_level,
        }
      : null,
    privacy_log: audit.map((a) => ({
      timestamp: iso(a.timestamp),
      action: a.action,
      privacy_level: a.privacy_level,
      ai_provider: a.ai_provider,
      reason: a.reason,
    })),
    revision_feedback: ROUNDS.map((round) => {
      const stored = feedback.find((f) => f.round === round);
      return {
        round,
        enabled: Boolean(order[`revision_${round}_enabled`]),
        feedback: stored?.feedback ?? order[`revision_${round}_feedback`] ?? null,
        submitted_at: iso((stored?.submitted_at as Date | undefined) ?? order[`revision_${round}_submitted_at`]),
      };
    }),
    emails: emails.map((m) => ({
      to: m.to,
      subject: m.subject,
      status: m.status,
      queued_at: iso(m.created_at as Date),
      sent_at: iso(m.sent_at),
      text: withoutTokens(m.text),
    })),
    reminders,
  };
  return { filename: `order-${shortId(order._id)}-data.json`, json: JSON.stringify(data, null, 2) };
}

/** The download response: a JSON file the browser saves, never cached. */
export function exportResponse(file: { filename: string; json: string }): Response {
  return new Response(file.json, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/**
 * The export as the routes answer it, once they have checked access: limited
 * per order (429), 404 for an order that is gone, else the file.
 */
export async function downloadOrderData(input: {
  orderId: string;
  requestedBy: "token" | "account";
}): Promise<Response> {
  if (!(await consumeRateLimit(EXPORT_LIMIT, input.orderId))) {
    return new Response("Too many downloads of this order's data. Please try again in an hour.", { status: 429 });
  }
  const file = await exportOrderData(input);
  if (!file) return new Response("Not Found", { status: 404 });
  return exportResponse(file);
}
