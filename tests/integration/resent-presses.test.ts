import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES, VERIFY_INTENTS } from "~/domain/account";
import { DETAIL_MESSAGES, ORDER_INTENT } from "~/domain/admin/order-detail";
import { FORM_KEY_FIELD } from "~/domain/form-key";
import { action as bulkAction } from "~/routes/admin._index";
import { action as orderAction } from "~/routes/admin.orders.$orderId";
import { action as resetAction } from "~/routes/auth_.reset-password";
import { action as codeAction } from "~/routes/auth_.two-factor";
import { action as verifyAction } from "~/routes/auth_.verify";
import { resendConfirmation } from "~/server/accounts.server";
import { requestPasswordReset } from "~/server/password-reset.server";
import { newFormKey } from "~/server/form-keys.server";
import { fulfilOrder } from "~/server/fulfilment.server";
import { AdminAuditLog, Order, OutboxMessage, ReminderLog, Session } from "~/server/models/index.server";
import { flashOf, post, type Answer } from "../support/admin";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";
import { uniqueAddress } from "../support/mailpit";

/**
 * A resent press (the first answer lost after the server acted) is answered as the first was and changes nothing
 * twice: reset password, Send Reminder, bulk reminders, the code page; and the draft URL's answer
 * says which URL the customer was e-mailed. Effects are counted on the server (outbox, reminder and audit rows).
 */
useTestDatabase();

const HOUR = 3_600_000;

async function waitingOrder() {
  const email = uniqueAddress("resent");
  const order = await Order.create({ email, amount_total: 30_000 });
  await fulfilOrder({ orderId: order._id, sessionId: `cs_${order._id}`, amountPaid: 30_000 });
  await Order.updateOne({ _id: order._id }, { $set: { paid_at: new Date(Date.now() - 30 * HOUR) } });
  return { orderId: order._id, email };
}

/** The token of the newest link to `path` e-mailed to `to`. */
async function linkIn(to: string, path: string) {
  const mail = await OutboxMessage.findOne({ to }).sort({ created_at: -1 }).lean();
  return new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail?.text ?? "")![1];
}

const cookieOf = (answer: Answer) =>
  answer.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("__session="));

describe("a resent press is answered as the first", () => {
  it("Send Reminder: one reminder, and the resend says 'sent' too", async () => {
    const admin = await signedInUser({ admin: true });
    const { orderId, email } = await waitingOrder();
    const press = { intent: ORDER_INTENT.sendReminder, [FORM_KEY_FIELD]: newFormKey() };
    const send = () => post(orderAction, `/admin/orders/${orderId}`, admin.cookie, press, { orderId });
    const first = await flashOf(await send());
    expect(first?.kind).toBe("success");
    expect(await flashOf(await send())).toEqual(first);
    expect(await ReminderLog.countDocuments({ order_id: orderId })).toBe(1);
    expect(await OutboxMessage.countDocuments({ to: email })).toBe(2); // the paid e-mail and one reminder
  });

  it("bulk reminders: the resend says '2 sent', not '0 sent'", async () => {
    const admin = await signedInUser({ admin: true });
    const orders = await Promise.all([waitingOrder(), waitingOrder()]);
    const press = {
      intent: "bulk",
      action: "send_reminders",
      orderIds: orders.map((o) => o.orderId),
      [FORM_KEY_FIELD]: newFormKey(),
    };
    const first = await flashOf(await post(bulkAction, "/admin", admin.cookie, press));
    expect(first?.title).toMatch(/^Sent reminders for 2 orders/);
    expect(await flashOf(await post(bulkAction, "/admin", admin.cookie, press))).toEqual(first);
    for (const { orderId } of orders) expect(await ReminderLog.countDocuments({ order_id: orderId })).toBe(1);
  });

  it("reset password: the resend signs in as the first did; with another password it says the link was used by it", async () => {
    const user = await signedInUser();
    await (await requestPasswordReset(user.email, "203.0.113.9"))!.done;
    const token = await linkIn(user.email, "/auth/reset-password");
    const key = newFormKey();
    const reset = (password: string) =>
      post(resetAction, "/auth/reset-password", "", { token, password, [FORM_KEY_FIELD]: key });
    const first = await reset("a-new-password-1");
    expect(first.location).toBe("/dashboard");
    const again = await reset("a-new-password-1");
    expect(again.status).toBe(303);
    expect(again.location).toBe("/dashboard");
    expect(await flashOf(again)).toEqual(await flashOf(first));
    expect(cookieOf(again)).toBeTruthy();
    const other = await reset("another-password-2");
    expect(other.status).toBe(410);
    expect(JSON.stringify(other.data)).toContain(AUTH_MESSAGES.resetAlreadyDone);
    // Without the press's key, a spent link is what it always was.
    const plain = await post(resetAction, "/auth/reset-password", "", { token, password: "a-new-password-1" });
    expect(JSON.stringify(plain.data)).toContain(AUTH_MESSAGES.resetInvalid);
  });

  it("confirming the address: the resend signs in as the first did, not 'link has expired'", async () => {
    const user = await signedInUser({ confirmed: false });
    expect(await resendConfirmation(user.user)).toBe(true);
    const token = await linkIn(user.email, "/auth/verify");
    const press = { intent: VERIFY_INTENTS.confirm, token, password: user.password, [FORM_KEY_FIELD]: newFormKey() };
    const first = await post(verifyAction, "/auth/verify", "", press);
    expect(first.location).toBe("/dashboard");
    const again = await post(verifyAction, "/auth/verify", "", press);
    expect(again.location).toBe("/dashboard");
    expect(await flashOf(again)).toEqual(await flashOf(first));
    const wrong = await post(verifyAction, "/auth/verify", "", { ...press, password: "not-the-password" });
    expect(wrong.status).toBe(400);
  });

  it("the code page: the resend finishes signing in as the first did, not an empty Sign In; a stranger's key does nothing", async () => {
    const admin = await signedInUser({ admin: true, secondFactor: "password-only" });
    const press = { intent: "verify", code: admin.code(), redirectTo: "/admin", [FORM_KEY_FIELD]: newFormKey() };
    const first = await post(codeAction, "/auth/two-factor", admin.cookie, press);
    expect(first.location).toBe("/admin");
    const again = await post(codeAction, "/auth/two-factor", admin.cookie, press);
    expect(again.location).toBe("/admin");
    expect(await flashOf(again)).toEqual(await flashOf(first));
    const session = cookieOf(again)!;
    expect(session).toBeTruthy();
    expect(await Session.countDocuments({ user_id: admin.user.id })).toBe(2); // the lost answer's and the resend's
    // The same key from a browser holding no session (or another's) is no resend of that press.
    const stranger = await post(codeAction, "/auth/two-factor", "", press);
    expect(stranger.location).toMatch(/^\/auth\?/);
  });

  it("the draft URL: a resend carrying a corrected URL saves it, and says the customer was e-mailed the first", async () => {
    const admin = await signedInUser({ admin: true });
    const { orderId, email } = await waitingOrder();
    const start = new Date();
    await Order.updateOne(
      { _id: orderId },
      { $set: { clock_started_at: start, clock_deadline: new Date(start.getTime() + 24 * HOUR) } },
    );
    const key = newFormKey();
    const save = (draftUrl: string) =>
      post(
        orderAction,
        `/admin/orders/${orderId}`,
        admin.cookie,
        { intent: ORDER_INTENT.saveDraftUrl, draftUrl, [FORM_KEY_FIELD]: key },
        { orderId },
      );
    expect(await flashOf(await save("https://draft.example/one"))).toMatchObject({
      title: DETAIL_MESSAGES.draftSaved.title,
    });
    const corrected = await flashOf(await save("https://draft.example/two"));
    expect(corrected?.description).toBe(DETAIL_MESSAGES.draftEmailedOther("https://draft.example/one"));
    expect((await Order.findById(orderId).lean())?.draft_url).toBe("https://draft.example/two");
    const delivered = await OutboxMessage.find({ to: email, text: /draft\.example/ }).lean();
    expect(delivered).toHaveLength(1);
    expect(await AdminAuditLog.countDocuments({ action: "order.draft_url", target_id: orderId })).toBe(2);
  });
});
