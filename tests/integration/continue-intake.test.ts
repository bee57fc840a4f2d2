import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { action as dashboardAction, loader as dashboardLoader } from "~/routes/dashboard";
import { action as statusAction, loader as statusLoader } from "~/routes/order-status";
import { CONTINUE_INTAKE_MESSAGES } from "~/domain/orders";
import { TOKEN_VALID_DAYS } from "~/domain/tokens";
import { CONTINUE_LINK_LIMITS } from "~/server/intake/continue.server";
import { statusTokenFor } from "~/server/fulfilment.server";
import { IntakeToken, Order, OutboxMessage } from "~/server/models/index.server";
import { tokenSession } from "~/server/tokens.server";
import { flashOf, get, paidOrderWithSession, post, type Answer } from "../support/admin";
import { tokenCookie } from "../support/app-data";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";

useTestDatabase();

/** "Continue your intake form" on the dashboard and the order status page. */

const formKey = () => randomBytes(16).toString("base64url");
const cookieOf = (answer: Answer) =>
  answer.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
/** The order the intake cookie an answer set opens (null: none, or not a working one). */
async function intakeOrderOf(answer: Answer) {
  const session = await tokenSession(
    new Request("http://localhost/", { headers: { Cookie: cookieOf(answer) } }),
    "intake",
  );
  return session?.state === "valid" ? session.token.order_id : null;
}
const mailsAbout = async (orderId: string) =>
  (await OutboxMessage.find({ order_id: orderId }).lean()).filter((m) => m.key.startsWith("continue-intake:"));
const expire = (orderId: string) =>
  IntakeToken.updateMany(
    { order_id: orderId, purpose: "intake" },
    { $set: { expires_at: new Date(Date.now() - 1000) } },
  );

async function ownersOrder() {
  const owner = await signedInUser();
  const order = await paidOrderWithSession(`continue-${randomBytes(4).toString("hex")}@example.test`, {
    user_id: owner.user.id,
  });
  return { owner, ...order };
}

describe("from the dashboard", () => {
  it("opens the owner's intake form while its link works, and offers it only for an unfinished intake", async () => {
    const { owner, orderId } = await ownersOrder();
    const page = (await get(dashboardLoader, "/dashboard", owner.cookie)).data as {
      orders: { id: string; canContinue: boolean }[];
    };
    expect(page.orders.find((o) => o.id === orderId)?.canContinue).toBe(true);

    const answer = await post(dashboardAction, "/dashboard", owner.cookie, {
      intent: "continue-intake",
      orderId,
      formKey: formKey(),
    });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe("/intake-form");
    expect(await intakeOrderOf(answer)).toBe(orderId);
    expect(await mailsAbout(orderId)).toHaveLength(0);

    await Order.updateOne({ _id: orderId }, { $set: { intake_submitted_at: new Date() } });
    const after = (await get(dashboardLoader, "/dashboard", owner.cookie)).data as {
      orders: { id: string; canContinue: boolean }[];
    };
    expect(after.orders.find((o) => o.id === orderId)?.canContinue).toBe(false);
    const submitted = await post(dashboardAction, "/dashboard", owner.cookie, {
      intent: "continue-intake",
      orderId,
      formKey: formKey(),
    });
    expect(submitted.location).toBe("/dashboard");
    expect(await flashOf(submitted)).toMatchObject(CONTINUE_INTAKE_MESSAGES.nothing);
    expect(await intakeOrderOf(submitted)).toBeNull();
  });

  it("e-mails a new link to the order's address when the link expired (once per press), and says so", async () => {
    const { owner, orderId } = await ownersOrder();
    const order = (await Order.findById(orderId).lean())!;
    await expire(orderId);
    const body = { intent: "continue-intake", orderId, formKey: formKey() };
    // The same press sent three times (its answer lost): one e-mail.
    const answers = await Promise.all([1, 2, 3].map(() => post(dashboardAction, "/dashboard", owner.cookie, body)));
    for (const answer of answers) {
      expect(answer.status).toBe(303);
      expect(answer.location).toBe("/dashboard");
      expect(await flashOf(answer)).toMatchObject(
        CONTINUE_INTAKE_MESSAGES.linkSent(order.email, TOKEN_VALID_DAYS.intake),
      );
      expect(await intakeOrderOf(answer)).toBeNull();
    }
    // Sent once more after the first was answered (the new link now works): answered as the first, not by opening the form.
    const late = await post(dashboardAction, "/dashboard", owner.cookie, body);
    expect(late.location).toBe("/dashboard");
    expect(await flashOf(late)).toMatchObject(CONTINUE_INTAKE_MESSAGES.linkSent(order.email, TOKEN_VALID_DAYS.intake));
    const mails = await mailsAbout(orderId);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toBe(order.email);
    expect(mails[0].subject).toBe("Your new intake form link");
    // The e-mailed link works and opens this order's form.
    const link = /\/intake-form\?token=([\w-]+)/.exec(mails[0].text)?.[1];
    expect(link).toBeTruthy();
    const cookie = await tokenCookie(link!);
    const session = await tokenSession(new Request("http://localhost/", { headers: { Cookie: cookie } }), "intake");
    expect(session).toMatchObject({ state: "valid", token: { order_id: orderId } });
  });

  it("e-mails at most a few new links a day per order", async () => {
    const { owner, orderId } = await ownersOrder();
    await expire(orderId);
    const press = () =>
      post(dashboardAction, "/dashboard", owner.cookie, { intent: "continue-intake", orderId, formKey: formKey() });
    for (let i = 0; i < CONTINUE_LINK_LIMITS.order.max; i++) {
      await expire(orderId);
      expect((await flashOf(await press()))?.title).toBe("New link sent");
    }
    await expire(orderId);
    const over = await press();
    expect(over.status).toBe(303);
    expect(await flashOf(over)).toMatchObject(CONTINUE_INTAKE_MESSAGES.tooMany);
    expect(await mailsAbout(orderId)).toHaveLength(CONTINUE_LINK_LIMITS.order.max);
  });

  it("answers another customer's order, an unknown order and no order as missing, and a visitor with sign-in", async () => {
    const { orderId } = await ownersOrder();
    const other = await signedInUser();
    for (const id of [orderId, "00000000-0000-4000-8000-000000000000", ""]) {
      const answer = await post(dashboardAction, "/dashboard", other.cookie, {
        intent: "continue-intake",
        orderId: id,
      });
      expect(answer.status).toBe(404);
      expect(await intakeOrderOf(answer)).toBeNull();
    }
    const visitor = await post(dashboardAction, "/dashboard", "", { intent: "continue-intake", orderId });
    expect([302, 303]).toContain(visitor.status);
    expect(visitor.location).toMatch(/^\/auth/);
    await expire(orderId);
    await post(dashboardAction, "/dashboard", other.cookie, { intent: "continue-intake", orderId, formKey: formKey() });
    expect(await mailsAbout(orderId)).toHaveLength(0);
  });
});

describe("from the order status page", () => {
  it("opens the intake form of the order the status link opened, never a posted one", async () => {
    const mine = await paidOrderWithSession(`status-${randomBytes(4).toString("hex")}@example.test`);
    const other = await paidOrderWithSession(`status-${randomBytes(4).toString("hex")}@example.test`);
    const statusCookie = await tokenCookie(await statusTokenFor(mine.orderId), "status");
    const page = (await get(statusLoader, "/order-status", statusCookie)).data as { canContinue: boolean };
    expect(page.canContinue).toBe(true);
    const answer = await post(statusAction, "/order-status", statusCookie, {
      intent: "continue-intake",
      orderId: other.orderId,
      formKey: formKey(),
    });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe("/intake-form");
    expect(await intakeOrderOf(answer)).toBe(mine.orderId);
  });

  it("e-mails a new link when the intake link was used, and refuses a refunded order", async () => {
    const mine = await paidOrderWithSession(`status-${randomBytes(4).toString("hex")}@example.test`);
    const statusCookie = await tokenCookie(await statusTokenFor(mine.orderId), "status");
    await IntakeToken.updateMany({ order_id: mine.orderId, purpose: "intake" }, { $set: { used: true } });
    const sent = await post(statusAction, "/order-status", statusCookie, {
      intent: "continue-intake",
      formKey: formKey(),
    });
    expect(sent.location).toBe("/order-status");
    expect((await flashOf(sent))?.title).toBe("New link sent");
    expect(await mailsAbout(mine.orderId)).toHaveLength(1);

    await Order.updateOne({ _id: mine.orderId }, { $set: { status: "refunded" } });
    const refused = await post(statusAction, "/order-status", statusCookie, {
      intent: "continue-intake",
      formKey: formKey(),
    });
    expect(await flashOf(refused)).toMatchObject(CONTINUE_INTAKE_MESSAGES.nothing);
    expect(await mailsAbout(mine.orderId)).toHaveLength(1);
  });

  it("sends a browser without the status link, or with a forged one, back to the page, changing nothing", async () => {
    const mine = await paidOrderWithSession(`status-${randomBytes(4).toString("hex")}@example.test`);
    const real = await tokenCookie(await statusTokenFor(mine.orderId), "status");
    const [name, value] = real.split("=");
    const forged = [
      `${name}=${value.slice(0, -4)}AAAA`,
      `${name}=${Buffer.from(JSON.stringify({ orderId: mine.orderId })).toString("base64")}`,
    ];
    await expire(mine.orderId);
    for (const cookie of ["", ...forged]) {
      const answer = await post(statusAction, "/order-status", cookie, {
        intent: "continue-intake",
        formKey: formKey(),
      });
      expect(answer.status).toBe(303);
      expect(answer.location).toBe("/order-status");
      expect(await intakeOrderOf(answer)).toBeNull();
    }
    expect(await mailsAbout(mine.orderId)).toHaveLength(0);
  });
});
