import mongoose from "mongoose";

// Every model, each registered with mongoose by its own module as it loads.
export { AccountToken } from "./account-token.server";
export { AdminAuditLog } from "./admin-audit.server";
export { ContactMessage } from "./contact-message.server";
export { Coupon, CouponRedemption } from "./coupon.server";
export { CustomerOrder, EmailOrder } from "./customer-order.server";
export { FormReceipt } from "./form-receipt.server";
export { Fulfilment } from "./fulfilment.server";
export { Heartbeat } from "./heartbeat.server";
export { IntakeSubmission } from "./intake-submission.server";
export { IntakeToken } from "./intake-token.server";
export { KeptPost } from "./kept-post.server";
export { Migration } from "./migration.server";
export { OnceKey } from "./once-key.server";
export { Order } from "./order.server";
export { OrderChange, OrderChangeMark } from "./order-change.server";
export { OrderDigestSnapshot } from "./order-digest-snapshot.server";
export { OrderEvent } from "./order-event.server";
export { PaymentIssue } from "./payment-issue.server";
export { PlanCheckout } from "./plan-checkout.server";
export { OutboxClaim, OutboxDue, OutboxMessage } from "./outbox.server";
export { PrivacyAuditLog } from "./privacy-audit.server";
export { RateLimitHit } from "./rate-limit.server";
export { ReminderLog } from "./reminder-log.server";
export { RevisionFeedback } from "./revision-feedback.server";
export { Session } from "./session.server";
export { StripeEvent } from "./stripe-event.server";
export { Subscription } from "./subscription.server";
export { TwoFactor } from "./two-factor.server";
export { TwoFactorFailure } from "./two-factor-failure.server";
export { findUserByEmail, User, UserRole } from "./user.server";

/** Every model, for building indexes and the index report: mongoose's own registry, which the exports above fill. */
export const allModels = () => Object.values(mongoose.models);

/** Builds every model's indexes; resolves once they exist (unique keys are what make effects exactly-once). */
export async function ensureIndexes() {
  await Promise.all(allModels().map((m) => m.init()));
}
