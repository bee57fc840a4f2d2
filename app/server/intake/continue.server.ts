import { randomUUID } from "node:crypto";
import { DAY_MS, HOUR_MS } from "~/domain/dates";
import { canContinueIntake, CONTINUE_INTAKE_MESSAGES } from "~/domain/orders";
import { addDays, TOKEN_VALID_DAYS } from "~/domain/tokens";
import { redirectWithFlash } from "../flash.server";
import { oncePerPost } from "../form-keys.server";
import { intakeLink } from "../fulfilment.server";
import { log } from "../log.server";
import { intakeLinkResent } from "../mail/messages.server";
import { queueMail } from "../mail/outbox.server";
import { Order } from "../models/index.server";
import { clientAddress, consumeRateLimit, type RateLimit } from "../rate-limit.server";
import { issueToken, newestToken, openTokenSession, type TokenDoc } from "../tokens.server";

/**
 * "Continue your intake form", from the dashboard and the order status page. The route has
 * already decided the caller may see the order (the owner's session, or the status link's cookie); this opens
 * the order's intake form when its link still works, and otherwise e-mails a new link to the order's address,
 * never showing one: whoever may see the page may not be the person who reads that inbox.
 */

/** New links e-mailed: a few a day per order (one inbox), and a wall per address for a script walking orders. */
export const CONTINUE_LINK_LIMITS = {
  order: { name: "intake-link:order", max: 3, windowMs: DAY_MS },
  address: { name: "intake-link:address", max: 10, windowMs: HOUR_MS },
} satisfies Record<string, RateLimit>;

/** What one press did: opened the form with the order's working link, or e-mailed a new one (or was refused). */
type ContinueAnswer = { open: TokenDoc } | { sent: boolean };

export async function continueIntake(request: Request, form: FormData, orderId: string, back: string) {
  const order = await Order.findById(orderId, {
    _id: 1,
    email: 1,
    status: 1,
    intake_submitted_at: 1,
    data_deleted_at: 1,
  }).lean();
  if (!order || !canContinueIntake(order))
    return redirectWithFlash(request, back, { kind: "info", ...CONTINUE_INTAKE_MESSAGES.nothing }, { status: 303 });
  // One press, one answer (a resend is answered as the first was, whenever it comes): the decision is taken
  // inside the press's receipt, so a resend that arrives after the first press e-mailed a new link still says
  // "sent" rather than opening the form with the link the first one made.
  const outcome = await oncePerPost<ContinueAnswer>(`continue-intake:${order._id}`, form, async () => {
    const link = await newestToken(order._id, "intake");
    if (link?.state === "valid") return { done: false, answer: { open: link.token } };
    // Expired, used or never issued: a new link by e-mail.
    const allowed =
      (await consumeRateLimit(CONTINUE_LINK_LIMITS.order, order._id)) &&
      (await consumeRateLimit(CONTINUE_LINK_LIMITS.address, clientAddress(request)));
    if (!allowed) return { done: false, answer: { sent: false } };
    const key = `continue-intake:${order._id}:${randomUUID()}`;
    const now = new Date();
    const token = await issueToken({ orderId: order._id, purpose: "intake", issueKey: key, now });
    const mail = intakeLinkResent({
      orderId: order._id,
      intakeUrl: intakeLink(token),
      linkExpiresAt: addDays(now, TOKEN_VALID_DAYS.intake),
    });
    await queueMail({ key, to: order.email, about: { orderId: order._id }, ...mail });
    log("info", "intake.link_resent", { order_id: order._id, previous: link?.state ?? "none" });
    return { done: true, answer: { sent: true }, orderId: order._id };
  });
  if ("open" in outcome) return openTokenSession(request, outcome.open, "intake", 303);
  return outcome.sent
    ? redirectWithFlash(
        request,
        back,
        { kind: "success", ...CONTINUE_INTAKE_MESSAGES.linkSent(order.email, TOKEN_VALID_DAYS.intake) },
        { status: 303 },
      )
    : redirectWithFlash(request, back, { kind: "error", ...CONTINUE_INTAKE_MESSAGES.tooMany }, { status: 303 });
}
