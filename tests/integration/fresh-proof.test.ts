import { describe, expect, it } from "vitest";
import { FRESH_PROOF_MS, TWO_FACTOR_MESSAGES } from "~/domain/two-factor";
import * as orders from "~/routes/admin._index";
import * as coupon from "~/routes/admin.coupons.$couponId";
import * as deletion from "~/routes/admin.privacy.delete.$orderId";
import * as reset from "~/routes/admin.security.reset.$userId";
import * as security from "~/routes/admin.security._index";
import * as codeStep from "~/routes/auth_.two-factor";
import { AdminAuditLog, Coupon, Order, Session, TwoFactor } from "~/server/models/index.server";
import { flashOf, get, paidOrderWithSession, post, type Answer } from "../support/admin";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";

useTestDatabase();

/** An admin whose last code was entered 11 minutes ago: signed in, but not fresh. */
const staleAdmin = () => signedInUser({ admin: true, verifiedAt: Date.now() - FRESH_PROOF_MS - 60_000 });
const newCoupon = async () =>
  String(
    (
      await Coupon.create({
        code: `FRESH${Date.now()}${Math.random().toString(36).slice(2, 6)}`.toUpperCase(),
        discount_type: "fixed",
        discount_value: 500,
      })
    )._id,
  );
const sessionCookie = (a: Answer) =>
  a.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("__session=")) ?? "";
const expectReprompt = async (answer: Answer, returnTo: string) => {
  expect(answer.status).toBe(303);
  expect(answer.location).toBe(`/auth/two-factor?redirectTo=${encodeURIComponent(returnTo)}`);
  expect(await flashOf(answer)).toEqual({ kind: "info", ...TWO_FACTOR_MESSAGES.freshProof });
};

describe("destructive actions need a code from the last 10 minutes", () => {
  it("without one, change nothing and send the admin to the code page, which returns to the same confirmation", async () => {
    const admin = await staleAdmin();
    const other = await signedInUser({ admin: true });
    const { orderId } = await paidOrderWithSession(`fresh-${Date.now()}@example.test`);
    const couponId = await newCoupon();

    await expectReprompt(
      await post(deletion.action, `/admin/privacy/delete/${orderId}`, admin.cookie, { intent: "delete" }, { orderId }),
      `/admin/privacy/delete/${orderId}`,
    );
    await expectReprompt(
      await post(coupon.action, `/admin/coupons/${couponId}`, admin.cookie, { intent: "delete" }, { couponId }),
      `/admin/coupons/${couponId}?confirm=delete`,
    );
    await expectReprompt(
      await post(orders.action, "/admin", admin.cookie, {
        intent: "bulk",
        action: "completed",
        orderIds: [orderId],
        status: "paid",
      }),
      `/admin?status=paid&bulk=completed&selected=${orderId}`,
    );
    await expectReprompt(
      await post(
        reset.action,
        `/admin/security/reset/${other.user.id}`,
        admin.cookie,
        { intent: "reset" },
        {
          userId: other.user.id,
        },
      ),
      `/admin/security/reset/${other.user.id}`,
    );

    const order = await Order.findById(orderId).lean();
    expect(order).toMatchObject({ status: "paid", data_deleted_at: null });
    expect(await Coupon.exists({ _id: couponId })).toBeTruthy();
    expect((await TwoFactor.findById(other.user.id).lean())?.secret).toBeTruthy();
    expect(await AdminAuditLog.countDocuments({ actor_id: admin.user.id })).toBe(0);

    // The code page asks to confirm, and goes back to the bulk form with what was chosen kept.
    const back = `/admin?status=paid&bulk=completed&selected=${orderId}`;
    const page = await get(codeStep.loader, `/auth/two-factor?redirectTo=${encodeURIComponent(back)}`, admin.cookie);
    expect(page.data).toMatchObject({ redirectTo: back, reprompt: true }); // (and the form's rules)
    const confirmed = await post(codeStep.action, "/auth/two-factor", admin.cookie, {
      intent: "verify",
      code: admin.code(),
      redirectTo: back,
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.location).toBe(back);
    const fresh = sessionCookie(confirmed);
    const list = await get(orders.loader, back, fresh);
    expect((list.data as { kept: unknown }).kept).toEqual({ action: "completed", selected: [orderId], all: false });

    // Now the same post goes through.
    const done = await post(orders.action, "/admin", fresh, {
      intent: "bulk",
      action: "completed",
      orderIds: [orderId],
    });
    expect(done.location).toBe("/admin");
    expect((await Order.findById(orderId).lean())?.status).toBe("completed");
  });

  it("bulk actions that change no status need no fresh code", async () => {
    const admin = await staleAdmin();
    const { orderId } = await paidOrderWithSession(`fresh-rev-${Date.now()}@example.test`);
    const answer = await post(orders.action, "/admin", admin.cookie, {
      intent: "bulk",
      action: "enable_revision_1",
      orderIds: [orderId],
    });
    expect(answer.location).toBe("/admin");
    expect((await Order.findById(orderId).lean())?.revision_1_enabled).toBe(true);
  });
});

describe("second-factor reset by another admin", () => {
  it("deletes the key and codes, ends their sessions, and is audited; an admin can't reset their own here", async () => {
    const admin = await signedInUser({ admin: true });
    const other = await signedInUser({ admin: true });
    const self = await get(reset.loader, `/admin/security/reset/${admin.user.id}`, admin.cookie, {
      userId: admin.user.id,
    });
    expect(self.status).toBe(404);
    const page = await get(reset.loader, `/admin/security/reset/${other.user.id}`, admin.cookie, {
      userId: other.user.id,
    });
    expect(page.data).toMatchObject({ target: { email: other.email, twoFactor: true } });
    const done = await post(
      reset.action,
      `/admin/security/reset/${other.user.id}`,
      admin.cookie,
      { intent: "reset" },
      {
        userId: other.user.id,
      },
    );
    expect(done.location).toBe("/admin/security");
    expect(await TwoFactor.exists({ _id: other.user.id })).toBeNull();
    expect(await Session.countDocuments({ user_id: other.user.id })).toBe(0);
    const entry = await AdminAuditLog.findOne({ actor_id: admin.user.id, action: "two_factor.reset" }).lean();
    expect(entry).toMatchObject({ target_type: "user", target_id: other.user.id });
  });
});

describe("the admin's sessions", () => {
  it("lists where the admin is signed in, and ends another session, but only the admin's own", async () => {
    const admin = await signedInUser({ admin: true });
    const second = await signedInUser({ admin: true, email: `second-${Date.now()}@example.test` });
    const page = await get(security.loader, "/admin/security", admin.cookie);
    const sessions = (page.data as { sessions: { handle: string; current: boolean; secondFactor: boolean }[] })
      .sessions;
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ current: true, secondFactor: true });

    // Another admin's session handle ends nothing.
    const theirs = (
      (await get(security.loader, "/admin/security", second.cookie)).data as { sessions: { handle: string }[] }
    ).sessions[0].handle;
    const refused = await post(security.action, "/admin/security", admin.cookie, {
      intent: "end-session",
      session: theirs,
    });
    expect(await flashOf(refused)).toMatchObject({ title: "That session has already ended" });
    expect(await Session.countDocuments({ user_id: second.user.id })).toBe(1);

    // Ending one's own current session signs this browser out.
    const out = await post(security.action, "/admin/security", admin.cookie, {
      intent: "end-session",
      session: sessions[0].handle,
    });
    expect(out.location).toBe("/auth");
    expect(await Session.countDocuments({ user_id: admin.user.id })).toBe(0);
  });
});
