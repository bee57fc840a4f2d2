import mongoose from "mongoose";
import { shortId } from "~/domain/orders";
import { formatCents } from "~/domain/money";
import { PAYMENT_LIST_LIMIT, type PaymentIssueKind, type PaymentResolution } from "~/domain/admin/payments";
import type { PageCursor } from "~/domain/paging";
import { claimOnce } from "../db.server";
import { fulfilOrder } from "../fulfilment.server";
import { Order, OnceKey, PaymentIssue } from "../models/index.server";
import { keysetPage } from "../paging.server";
import { recordAdminAction, type Actor } from "./audit.server";

export type PaymentIssueRow = {
  id: string;
  kind: PaymentIssueKind;
  orderId: string;
  shortId: string;
  email: string | null;
  expected: string;
  paid: string;
  couponCode: string | null;
  createdAt: string;
  resolvedAt: string | null;
  resolution: PaymentResolution | null;
  resolvedBy: string | null;
};

type IssueDoc = {
  _id: string;
  kind: PaymentIssueKind;
  order_id: string;
  stripe_session_id: string;
  expected_cents: number;
  paid_cents: number;
  coupon_code?: string | null;
  created_at?: Date;
  resolved_at?: Date | null;
  resolution?: string | null;
  resolved_by?: string | null;
};

async function rows(docs: IssueDoc[]): Promise<PaymentIssueRow[]> {
  const orderIds = [...new Set(docs.map((d) => d.order_id))];
  const orders = orderIds.length
    ? await Order.find({ _id: mongoose.trusted({ $in: orderIds }) }, { email: 1 }).lean()
    : [];
  const emails = new Map(orders.map((o) => [String(o._id), o.email as string]));
  return docs.map((d) => ({
    id: d._id,
    kind: d.kind,
    orderId: d.order_id,
    shortId: shortId(d.order_id),
    email: emails.get(d.order_id) ?? null,
    expected: formatCents(d.expected_cents),
    paid: formatCents(d.paid_cents),
    couponCode: d.coupon_code ?? null,
    createdAt: (d.created_at ?? new Date(0)).toISOString(),
    resolvedAt: d.resolved_at ? d.resolved_at.toISOString() : null,
    resolution: (d.resolution as PaymentResolution | null) ?? null,
    resolvedBy: d.resolved_by ?? null,
  }));
}

/**
 * The Payments tab: unresolved issues newest first, and resolved ones most
 * recently resolved first, each paged on its own cursor (PAYMENT_LIST_LIMIT a
 * page; the open list by { resolved_at, created_at, _id }, the resolved one by
 * { resolved_at, _id }).
 */
export async function listPaymentIssues(
  input: { openCursor?: PageCursor | null; resolvedCursor?: PageCursor | null; pageSize?: number } = {},
) {
  const pageSize = input.pageSize ?? PAYMENT_LIST_LIMIT;
  const [open, resolved] = await Promise.all([
    keysetPage<IssueDoc>(PaymentIssue, {
      filter: { resolved_at: null },
      field: "created_at",
      cursor: input.openCursor ?? null,
      pageSize,
    }),
    keysetPage<IssueDoc>(PaymentIssue, {
      filter: { resolved_at: mongoose.trusted({ $ne: null }) },
      field: "resolved_at",
      cursor: input.resolvedCursor ?? null,
      pageSize,
    }),
  ]);
  return { open: { ...open, rows: await rows(open.rows) }, resolved: { ...resolved, rows: await rows(resolved.rows) } };
}

/** Whether an order has a payment issue nobody has resolved (the order detail's banner). */
export async function hasOpenPaymentIssue(orderId: string): Promise<boolean> {
  return Boolean(await PaymentIssue.exists({ order_id: orderId, resolved_at: null }));
}

export type ResolveResult = "accepted" | "resolved" | "already-resolved" | "not-found" | "not-acceptable";

/**
 * Closes one payment issue, exactly once however many posts race: the first to
 * claim the issue's once-key acts, every other is told it was done already.
 * "accepted" (amount_mismatch only) fulfils the order through fulfilOrder with
 * the amount actually paid, so the customer gets the usual e-mail once;
 * "resolved" only records that the admin dealt with it (refunded outside, say).
 * Either way one admin audit entry names the issue.
 */
export async function resolvePaymentIssue(input: {
  issueId: string;
  how: PaymentResolution;
  actor: Actor;
  now?: Date;
}): Promise<ResolveResult> {
  const issue = await PaymentIssue.findById(input.issueId).lean<IssueDoc>();
  if (!issue) return "not-found";
  if (issue.resolved_at) return "already-resolved";
  if (input.how === "accepted" && issue.kind !== "amount_mismatch") return "not-acceptable";
  const key = `payment-issue:${issue._id}`;
  if (!(await claimOnce(key))) return "already-resolved";
  try {
    if (input.how === "accepted") {
      await fulfilOrder({ orderId: issue.order_id, sessionId: issue.stripe_session_id, amountPaid: issue.paid_cents });
    }
    await PaymentIssue.updateOne(
      { _id: issue._id },
      { $set: { resolved_at: input.now ?? new Date(), resolution: input.how, resolved_by: input.actor.email } },
    );
  } catch (error) {
    await OnceKey.deleteOne({ _id: key }); // nothing was closed: let the admin try again
    throw error;
  }
  await recordAdminAction(
    input.actor,
    `payment_issue.${input.how}`,
    { type: "order", id: issue.order_id },
    { issue_id: issue._id, kind: issue.kind, paid_cents: issue.paid_cents },
  );
  return input.how;
}
