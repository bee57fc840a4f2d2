import { AccountToken } from "./account-token.server";
import { AdminAuditLog } from "./admin-audit.server";
import { ContactMessage } from "./contact-message.server";
import { Coupon, CouponRedemption } from "./coupon.server";
import { FormReceipt } from "./form-receipt.server";
import { Fulfilment } from "./fulfilment.server";
import { IntakeSubmission } from "./intake-submission.server";
import { IntakeToken } from "./intake-token.server";
import { OnceKey } from "./once-key.server";
import { Order } from "./order.server";
import { OrderEvent } from "./order-event.server";
import { PaymentIssue } from "./payment-issue.server";
import { PlanCheckout } from "./plan-checkout.server";
import { OutboxClaim, OutboxMessage } from "./outbox.server";
import { PrivacyAuditLog } from "./privacy-audit.server";
import { RateLimitHit } from "./rate-limit.server";
import { ReminderLog } from "./reminder-log.server";
import { RevisionFeedback } from "./revision-feedback.server";
import { Session } from "./session.server";
import { StripeEvent } from "./stripe-event.server";
import { Subscription } from "./subscription.server";
import { TwoFactor } from "./two-factor.server";
import { User, UserRole } from "./user.server";

/** Every model, for building indexes and for tests. */
export const allModels = [
  AdminAuditLog,
  AccountToken,
  ContactMessage,
  Coupon,
  CouponRedemption,
  FormReceipt,
  Fulfilment,
  IntakeSubmission,
  IntakeToken,
  OnceKey,
  Order,
  OrderEvent,
  OutboxClaim,
  OutboxMessage,
  PaymentIssue,
  PlanCheckout,
  PrivacyAuditLog,
  RateLimitHit,
  ReminderLog,
  RevisionFeedback,
  Session,
  StripeEvent,
  Subscription,
  TwoFactor,
  User,
  UserRole,
];

export {
  AdminAuditLog,
  AccountToken,
  ContactMessage,
  Coupon,
  CouponRedemption,
  FormReceipt,
  Fulfilment,
  IntakeSubmission,
  IntakeToken,
  OnceKey,
  Order,
  OrderEvent,
  OutboxClaim,
  OutboxMessage,
  PaymentIssue,
  PlanCheckout,
  PrivacyAuditLog,
  RateLimitHit,
  ReminderLog,
  RevisionFeedback,
  Session,
  StripeEvent,
  Subscription,
  TwoFactor,
  User,
  UserRole,
};

/** Builds every model's indexes; resolves once they exist (unique keys are what make effects exactly-once). */
export async function ensureIndexes() {
  await Promise.all(allModels.map((m) => m.init()));
}
