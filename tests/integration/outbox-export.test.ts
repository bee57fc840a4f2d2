import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { action as outboxAction, loader as outboxLoader } from "~/routes/admin.outbox";
import { action as accountExport, loader as accountExportLoader } from "~/routes/dashboard.orders.$orderId.export";
import { action as tokenExport } from "~/routes/order-status.export";
import { receiveContactMessage } from "~/server/contact.server";
import { EXPORT_LIMIT } from "~/server/data-export.server";
import { getEnv } from "~/server/env.server";
import { submitIntake } from "~/server/intake/draft.server";
import { fulfilOrder, intakeTokenFor, statusTokenFor } from "~/server/fulfilment.server";
import { deliverDueMail } from "~/server/mail/outbox.server";
import { layout } from "~/server/mail/templates.server";
import { smtpTransport } from "~/server/mail/transport.server";
import { IntakeSubmission, Order, OutboxMessage, PrivacyAuditLog } from "~/server/models/index.server";
import { paidOrderWithSession } from "../support/admin";
import { tokenCookie } from "../support/app-data";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";
import { messagesTo, uniqueAddress } from "../support/mailpit";

useTestDatabase();

type Reply = Response & { init?: { status?: number } };
/** Calls a route function as Remix would; a thrown Response (a redirect, a 400) is the answer too. */
async function call(fn: () => Promise<unknown> | unknown): Promise<Reply> {
  try {
    return (await fn()) as Reply;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown as Reply;
    throw thrown;
  }
}
const statusOf = (r: Reply) => r.init?.status ?? r.status;
const post = (url: string, cookie: string, body: Record<string, string> = {}) =>
  new Request(url, { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams(body) });

async function paidOrder(userId?: string) {
  const email = uniqueAddress("export");
  const order = await Order.create({ email, amount_total: 30_000, user_id: userId ?? null });
  await fulfilOrder({ orderId: order._id, sessionId: `cs_${order._id}`, amountPaid: 30_000 });
  return { orderId: order._id, email, statusToken: await statusTokenFor(order._id) };
}
/** The cookie a browser holds after opening the order-status link. */
const statusCookie = (token: string) => tokenCookie(token, "status");

describe("/admin/outbox", () => {
  it("is for admins only, in the loader and the action", async () => {
    const customer = await signedInUser();
    const visitorGet = await call(() =>
      outboxLoader({ request: new Request("http://localhost/admin/outbox"), params: {}, context: {} }),
    );
    expect(visitorGet.headers.get("Location")).toMatch(/^\/auth/);
    const customerGet = await call(() =>
      outboxLoader({
        request: new Request("http://localhost/admin/outbox", { headers: { Cookie: customer.cookie } }),
        params: {},
        context: {},
      }),
    );
    expect(customerGet.headers.get("Location")).toBe("/dashboard");
    const customerPost = await call(() =>
      outboxAction({
        request: post("http://localhost/admin/outbox", customer.cookie, { intent: "retry", messageId: "a".repeat(24) }),
        params: {},
        context: {},
      }),
    );
    expect(customerPost.headers.get("Location")).toBe("/dashboard");
  });

  it("answers an unknown intent or a malformed id with 400, and ignores a bad filter", async () => {
    const admin = await signedInUser({ admin: true });
    const bodies: Record<string, string>[] = [
      { intent: "delete", messageId: "a".repeat(24) },
      { intent: "retry", messageId: "../../etc" },
      { intent: "retry", messageId: "" },
      {},
    ];
    for (const body of bodies) {
      const r = await call(() =>
        outboxAction({ request: post("http://localhost/admin/outbox", admin.cookie, body), params: {}, context: {} }),
      );
      expect(statusOf(r), JSON.stringify(body)).toBe(400);
    }
    const page = await call(() =>
      outboxLoader({
        request: new Request("http://localhost/admin/outbox?status[$ne]=x&before=yesterday&status=nope", {
          headers: { Cookie: admin.cookie },
        }),
        params: {},
        context: {},
      }),
    );
    expect(page).toMatchObject({ status: "" });
  });

  it("retries a failed message once however many clicks race, and never a sent one", async () => {
    const admin = await signedInUser({ admin: true });
    const to = uniqueAddress("retry-race");
    const failed = await OutboxMessage.create({
      key: `retry-${to}`,
      to,
      ...layout("Hello", ["Hi"]),
      status: "failed",
      attempts: 20,
      last_error: "timeout",
    });
    const clicks = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(() =>
          outboxAction({
            request: post("http://localhost/admin/outbox?status=failed", admin.cookie, {
              intent: "retry",
              messageId: String(failed._id),
            }),
            params: {},
            context: {},
          }),
        ),
      ),
    );
    expect(
      clicks.every((r) => statusOf(r) === 303 && r.headers.get("Location") === "/admin/outbox?status=failed"),
    ).toBe(true);
    const transport = smtpTransport(process.env.SMTP_URL!);
    await Promise.all([deliverDueMail(transport), deliverDueMail(transport), deliverDueMail(transport)]);
    await new Promise((r) => setTimeout(r, 500));
    expect(await messagesTo(to)).toHaveLength(1);
    expect((await OutboxMessage.findById(failed._id).lean())?.status).toBe("sent");

    // Sent: a Retry changes nothing and says why.
    const again = await call(() =>
      outboxAction({
        request: post("http://localhost/admin/outbox", admin.cookie, {
          intent: "retry",
          messageId: String(failed._id),
        }),
        params: {},
        context: {},
      }),
    );
    expect(statusOf(again)).toBe(303);
    await deliverDueMail(transport);
    expect(await messagesTo(to)).toHaveLength(1);
  });
});

describe("the data export routes", () => {
  it("give a signed-in owner their order, and anyone else a 404", async () => {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const { orderId } = await paidOrder(owner.user.id);
    const url = `http://localhost/dashboard/orders/${orderId}/export`;
    const ok = await call(() => accountExport({ request: post(url, owner.cookie), params: { orderId }, context: {} }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Content-Disposition")).toBe(`attachment; filename="order-${orderId.slice(0, 8)}-data.json"`);
    expect((await ok.json()).order.id).toBe(orderId);

    expect(
      (await call(() => accountExport({ request: post(url, stranger.cookie), params: { orderId }, context: {} })))
        .status,
    ).toBe(404);
    expect(
      (
        await call(() =>
          accountExport({ request: post(url, owner.cookie), params: { orderId: randomUUID() }, context: {} }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await call(() =>
          accountExport({ request: post(url, owner.cookie), params: { orderId: "x'; drop" }, context: {} }),
        )
      ).status,
    ).toBe(404);
    const visitor = await call(() => accountExport({ request: post(url, ""), params: { orderId }, context: {} }));
    expect(visitor.headers.get("Location")).toMatch(/^\/auth/);
    expect(accountExportLoader().status).toBe(405);
    expect(await PrivacyAuditLog.countDocuments({ order_id: orderId, action: "data_export" })).toBe(1);
  });

  it("give the holder of an order's link that order only, with its intake answers and file links", async () => {
    const mine = await paidOrder();
    await IntakeSubmission.create({
      order_id: mine.orderId,
      business_name: "Acme",
      logo_key: "logos/x/secret-key.png",
      logo_url: `/uploads/logos/${mine.orderId}/aaaaaaaaaaaaaaaaaaaaaaaa.png`,
      data_retention_period: "1year",
    });
    const cookie = await statusCookie(mine.statusToken);
    const r = await call(() =>
      tokenExport({ request: post("http://localhost/order-status/export", cookie), params: {}, context: {} }),
    );
    const data = await r.json();
    expect(data.order.id).toBe(mine.orderId);
    expect(data.intake.business_name).toBe("Acme");
    expect(data.intake.logo_url).toMatch(/^http.*\/uploads\/logos\//);
    expect(data.consents.data_retention_period).toBe("1year");
    expect(JSON.stringify(data)).not.toContain("secret-key");
    // The payment e-mail, and the business's notice of the order.
    expect(data.emails).toHaveLength(2);
    const paymentMail = data.emails.find((m: { to: string }) => m.to === mine.email);
    // The e-mail's text is there, but its links no longer open anything.
    expect(paymentMail.text).toContain("intake-form?token=[removed]");
    expect(paymentMail.text).toContain("order-status?access_token=[removed]");
    expect(JSON.stringify(data)).not.toContain(mine.statusToken);

    // No link, a forged cookie, or the intake form's cookie: back to the status page with the spec's message.
    for (const cookie of ["", "__status=forged", await tokenCookie(await intakeTokenFor(mine.orderId), "intake")]) {
      const refused = await call(() =>
        tokenExport({ request: post("http://localhost/order-status/export", cookie), params: {}, context: {} }),
      );
      expect(refused.headers.get("Location"), cookie).toBe("/order-status");
    }
  });

  it("hold only the mail about this order, whatever contact address the intake names (the business's, another customer's)", async () => {
    // Other people's mail: a stranger's enquiry (to the business) and another customer's payment e-mail.
    const stranger = uniqueAddress("stranger");
    await receiveContactMessage({
      name: "Stranger",
      email: stranger,
      phone: "0400 111 222",
      message: "Please call me, I live at 1 Secret Street",
    });
    const other = await paidOrder();
    for (const contactEmail of [getEnv().BUSINESS_EMAIL, other.email]) {
      const mine = await paidOrderWithSession(uniqueAddress("mine"));
      await IntakeSubmission.create({ order_id: mine.orderId, business_name: "Acme", contact_email: contactEmail });
      await submitIntake({ orderId: mine.orderId, tokenId: mine.tokenId });
      const cookie = await statusCookie(await statusTokenFor(mine.orderId));
      const r = await call(() =>
        tokenExport({ request: post("http://localhost/order-status/export", cookie), params: {}, context: {} }),
      );
      const data = await r.json();
      const file = JSON.stringify(data);
      expect(file, contactEmail).not.toContain(stranger);
      expect(file, contactEmail).not.toContain("1 Secret Street");
      expect(file, contactEmail).not.toContain(other.orderId.slice(0, 8));
      // Its own: the payment e-mail, the intake confirmations (to the buyer and the typed address), the business's
      // two notices (paid, intake submitted).
      const subjects = data.emails.map((m: { subject: string }) => m.subject);
      expect(subjects, contactEmail).toHaveLength(5);
      expect(subjects.filter((s: string) => s === "We've received your details")).toHaveLength(2);
      expect(subjects).toContain("Intake submitted: Acme");
      expect(file).not.toMatch(/token=(?!\[removed\])/);
    }
  });

  it(`allows ${EXPORT_LIMIT.max} downloads of an order an hour`, async () => {
    const { orderId, statusToken } = await paidOrder();
    const cookie = await statusCookie(statusToken);
    const statuses = [];
    for (let i = 0; i <= EXPORT_LIMIT.max; i++) {
      statuses.push(
        (
          await call(() =>
            tokenExport({ request: post("http://localhost/order-status/export", cookie), params: {}, context: {} }),
          )
        ).status,
      );
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(EXPORT_LIMIT.max);
    expect(statuses.at(-1)).toBe(429);
    expect(await PrivacyAuditLog.countDocuments({ order_id: orderId, action: "data_export" })).toBe(EXPORT_LIMIT.max);
  });
});
