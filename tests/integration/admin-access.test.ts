import { beforeAll, describe, expect, it } from "vitest";
import * as coupon from "~/routes/admin.coupons.$couponId";
import * as coupons from "~/routes/admin.coupons._index";
import * as orders from "~/routes/admin._index";
import * as adminLayout from "~/routes/admin";
import * as stay from "~/routes/admin.session";
import * as csv from "~/routes/admin.orders[.]csv";
import * as order from "~/routes/admin.orders.$orderId";
import * as orderFile from "~/routes/admin.orders.$orderId_.files.$";
import * as orderArchive from "~/routes/admin.orders.$orderId_.files[.]zip";
import * as refund from "~/routes/admin.orders.$orderId_.refund";
import * as restartClock from "~/routes/admin.orders.$orderId_.restart-clock";
import * as privacy from "~/routes/admin.privacy._index";
import * as deletion from "~/routes/admin.privacy.delete.$orderId";
import * as payments from "~/routes/admin.payments";
import * as outbox from "~/routes/admin.outbox";
import * as security from "~/routes/admin.security._index";
import * as resetFactor from "~/routes/admin.security.reset.$userId";
import { readdirSync } from "node:fs";
import { Coupon, IntakeSubmission, Order, PaymentIssue, TwoFactor } from "~/server/models/index.server";
import { getStorage } from "~/server/storage.server";
import { flashOf, get, paidOrderWithSession, people, post, type Answer } from "../support/admin";
import { useTestDatabase } from "../support/db";

useTestDatabase();

/**
 * The authorization matrix: every admin route's loader and action, as a visitor,
 * a holder of an intake token, a signed-in customer, an admin who has only given
 * the password (the code step still owed), an admin who has not set up the second
 * factor, and an admin past it. One test per cell. Everyone but the full admin posts
 * real changes, and nothing may change; the admin's post carries an unknown intent,
 * which only code past the access check can answer (400).
 */
type Person =
  "visitor" | "token holder" | "customer" | "admin with password only" | "admin without a second factor" | "admin";
const PEOPLE: Person[] = [
  "visitor",
  "token holder",
  "customer",
  "admin with password only",
  "admin without a second factor",
  "admin",
];

let who: Awaited<ReturnType<typeof people>>;
let orderId: string;
let couponId: string;
let issueId: string;
/** The matrix order's uploaded logo, which only an admin may download. */
let logoKey: string;
/** Another admin, whose second factor nobody in the matrix may reset. */
let otherAdminId: string;

beforeAll(async () => {
  who = await people();
  otherAdminId = who["admin with password only"].user.id;
  orderId = (await paidOrderWithSession(`matrix-${Date.now()}@example.test`)).orderId;
  logoKey = `logos/${orderId}/${"a".repeat(24)}.png`;
  await getStorage().put(logoKey, new Uint8Array([0x89, 0x50, 0x4e, 0x47]), "image/png");
  await IntakeSubmission.create({ _id: orderId, order_id: orderId, logo_key: logoKey });
  couponId = String(
    (await Coupon.create({ code: `MATRIX${Date.now()}`, discount_type: "percentage", discount_value: 10 }))._id,
  );
  issueId = `amount_mismatch:cs_matrix_${Date.now()}`;
  await PaymentIssue.create({
    _id: issueId,
    kind: "amount_mismatch",
    order_id: orderId,
    stripe_session_id: "cs_matrix",
    expected_cents: 30_000,
    paid_cents: 100,
  });
});

type Cell = { name: string; call: (cookie: string, person: Person) => Promise<Answer> };
const admin = (person: Person, realBody: Record<string, string | string[]>) =>
  person === "admin" ? { intent: "not-a-real-intent" } : realBody;

const cells: Cell[] = [
  { name: "GET /admin", call: (c) => get(orders.loader, "/admin", c) },
  // The layout around every admin page (the session's end, a kept post), and its Stay signed in.
  { name: "GET /admin (layout)", call: (c) => get(adminLayout.loader, "/admin/coupons", c) },
  {
    name: "POST /admin/session (Stay signed in)",
    call: (c, p) => post(stay.action, "/admin/session", c, admin(p, { intent: "stay-signed-in" })),
  },
  {
    name: "POST /admin (bulk completed)",
    call: (c, p) =>
      post(orders.action, "/admin", c, admin(p, { intent: "bulk", action: "completed", orderIds: [orderId] })),
  },
  { name: "GET /admin/orders.csv", call: (c) => get(csv.loader, "/admin/orders.csv", c) },
  { name: "GET /admin/orders/:id", call: (c) => get(order.loader, `/admin/orders/${orderId}`, c, { orderId }) },
  {
    name: "GET /admin/orders/:id (Brief, to print)",
    call: (c) => get(order.loader, `/admin/orders/${orderId}?tab=brief&print=1`, c, { orderId }),
  },
  {
    name: "POST /admin/orders/:id (draft URL)",
    call: (c, p) =>
      post(
        order.action,
        `/admin/orders/${orderId}`,
        c,
        admin(p, { intent: "save-draft-url", draftUrl: "https://evil.example" }),
        { orderId },
      ),
  },
  {
    name: "POST /admin/orders/:id (enable revision)",
    call: (c, p) =>
      post(
        order.action,
        `/admin/orders/${orderId}`,
        c,
        admin(p, { intent: "toggle-revision", round: "1", enabled: "true" }),
        { orderId },
      ),
  },
  {
    name: "GET /admin/orders/:id/files/:key",
    call: (c) => get(orderFile.loader, `/admin/orders/${orderId}/files/${logoKey}`, c, { orderId, "*": logoKey }),
  },
  {
    name: "GET /admin/orders/:id/files.zip",
    call: (c) => get(orderArchive.loader, `/admin/orders/${orderId}/files.zip`, c, { orderId }),
  },
  { name: "GET /admin/coupons", call: (c) => get(coupons.loader, "/admin/coupons", c) },
  {
    name: "POST /admin/coupons (create)",
    call: (c, p) =>
      post(
        coupons.action,
        "/admin/coupons",
        c,
        admin(p, {
          intent: "create",
          code: "HACKED",
          discount_type: "percentage",
          discount_value: "100",
          active: "on",
        }),
      ),
  },
  { name: "GET /admin/coupons/:id", call: (c) => get(coupon.loader, `/admin/coupons/${couponId}`, c, { couponId }) },
  {
    name: "POST /admin/coupons/:id (delete)",
    call: (c, p) => post(coupon.action, `/admin/coupons/${couponId}`, c, admin(p, { intent: "delete" }), { couponId }),
  },
  { name: "GET /admin/privacy", call: (c) => get(privacy.loader, "/admin/privacy?tab=deletions", c) },
  {
    name: "GET /admin/privacy/delete/:id",
    call: (c) => get(deletion.loader, `/admin/privacy/delete/${orderId}`, c, { orderId }),
  },
  { name: "GET /admin/payments", call: (c) => get(payments.loader, "/admin/payments", c) },
  {
    name: "POST /admin/payments (accept)",
    call: (c, p) => post(payments.action, "/admin/payments", c, admin(p, { intent: "accept", issueId })),
  },
  { name: "GET /admin/outbox", call: (c) => get(outbox.loader, "/admin/outbox", c) },
  {
    name: "POST /admin/outbox (retry)",
    call: (c, p) => post(outbox.action, "/admin/outbox", c, admin(p, { intent: "retry", messageId: "0".repeat(24) })),
  },
  { name: "GET /admin/security", call: (c) => get(security.loader, "/admin/security", c) },
  {
    name: "POST /admin/security (end a session)",
    call: (c, p) =>
      post(security.action, "/admin/security", c, admin(p, { intent: "end-session", session: "x".repeat(22) })),
  },
  {
    name: "GET /admin/security/reset/:id",
    call: (c) => get(resetFactor.loader, `/admin/security/reset/${otherAdminId}`, c, { userId: otherAdminId }),
  },
  {
    name: "POST /admin/security/reset/:id (reset)",
    call: (c, p) =>
      post(resetFactor.action, `/admin/security/reset/${otherAdminId}`, c, admin(p, { intent: "reset" }), {
        userId: otherAdminId,
      }),
  },
  {
    name: "GET /admin/orders/:id/refund",
    call: (c) => get(refund.loader, `/admin/orders/${orderId}/refund`, c, { orderId }),
  },
  {
    name: "POST /admin/orders/:id/refund (refund)",
    call: (c, p) =>
      post(refund.action, `/admin/orders/${orderId}/refund`, c, admin(p, { intent: "refund", reason: "Goodwill" }), {
        orderId,
      }),
  },
  {
    name: "GET /admin/orders/:id/restart-clock",
    call: (c) => get(restartClock.loader, `/admin/orders/${orderId}/restart-clock`, c, { orderId }),
  },
  {
    name: "POST /admin/orders/:id/restart-clock (restart)",
    call: (c, p) =>
      post(
        restartClock.action,
        `/admin/orders/${orderId}/restart-clock`,
        c,
        admin(p, { intent: "restart", reason: "Logo missing", restarts: "0" }),
        { orderId },
      ),
  },
  {
    name: "POST /admin/privacy/delete/:id (delete)",
    call: (c, p) =>
      post(deletion.action, `/admin/privacy/delete/${orderId}`, c, admin(p, { intent: "delete" }), { orderId }),
  },
];

/** Every admin route module, and the matrix rows that cover it: a new admin route must join the matrix. */
const COVERED: Record<string, string> = {
  "admin.tsx": "/admin (layout)",
  "admin.session.ts": "/admin/session",
  "admin._index.tsx": "/admin",
  "admin.orders[.]csv.ts": "/admin/orders.csv",
  "admin.orders.$orderId.tsx": "/admin/orders/:id",
  "admin.orders.$orderId_.files.$.ts": "/admin/orders/:id/files/:key",
  "admin.orders.$orderId_.files[.]zip.ts": "/admin/orders/:id/files.zip",
  "admin.orders.$orderId_.refund.tsx": "/admin/orders/:id/refund",
  "admin.orders.$orderId_.restart-clock.tsx": "/admin/orders/:id/restart-clock",
  "admin.coupons._index.tsx": "/admin/coupons",
  "admin.coupons.$couponId.tsx": "/admin/coupons/:id",
  "admin.privacy._index.tsx": "/admin/privacy",
  "admin.privacy.delete.$orderId.tsx": "/admin/privacy/delete/:id",
  "admin.payments.tsx": "/admin/payments",
  "admin.outbox.tsx": "/admin/outbox",
  "admin.security._index.tsx": "/admin/security",
  "admin.security.reset.$userId.tsx": "/admin/security/reset/:id",
};

it("covers every admin route module", () => {
  const modules = readdirSync(new URL("../../app/routes", import.meta.url)).filter((f) => f.startsWith("admin"));
  expect(modules.sort()).toEqual(Object.keys(COVERED).sort());
  for (const path of Object.values(COVERED))
    expect(
      cells.some((c) => c.name.endsWith(` ${path}`) || c.name.includes(` ${path} `)),
      path,
    ).toBe(true);
});

async function unchanged() {
  const o = await Order.findById(orderId).lean();
  expect(o).toMatchObject({ status: "paid", draft_url: null, revision_1_enabled: false, data_deleted_at: null });
  expect(await Coupon.exists({ _id: couponId })).toBeTruthy();
  expect(await Coupon.exists({ code: "HACKED" })).toBeNull();
  expect((await PaymentIssue.findById(issueId).lean())?.resolved_at).toBeNull();
  expect((await TwoFactor.findById(otherAdminId).lean())?.secret).toBeTruthy();
}

describe.each(cells)("$name", ({ name, call }) => {
  it.each(PEOPLE)("as %s", async (person) => {
    const answer = await call(who[person].cookie, person);
    const isPost = name.startsWith("POST");
    if (person === "admin with password only") {
      expect(answer.status).toBe(303);
      expect(answer.location).toMatch(/^\/auth\/two-factor\?redirectTo=/);
    } else if (person === "admin without a second factor") {
      expect(answer.status).toBe(303);
      expect(answer.location).toMatch(/^\/auth\/two-factor\/setup\?redirectTo=/);
    } else if (person === "visitor" || person === "token holder") {
      expect([302, 303]).toContain(answer.status);
      expect(answer.location).toMatch(/^\/auth\?redirectTo=/);
    } else if (person === "customer") {
      expect([302, 303]).toContain(answer.status);
      expect(answer.location).toBe("/dashboard");
      expect(await flashOf(answer)).toEqual({
        kind: "error",
        title: "Access Denied",
        description: "You don't have admin privileges",
      });
    } else {
      expect(answer.status).toBe(isPost ? 400 : 200);
    }
    await unchanged();
  });
});
