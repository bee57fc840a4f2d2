import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "~/domain/account";
import { ADMIN_SESSION_MESSAGES, KEPT_POST_MAX_BYTES, STAY_SIGNED_IN } from "~/domain/admin/session";
import { FORM_KEY_FIELD } from "~/domain/form-key";
import * as layout from "~/routes/admin";
import * as coupons from "~/routes/admin.coupons._index";
import * as order from "~/routes/admin.orders.$orderId";
import * as stay from "~/routes/admin.session";
import * as signInPage from "~/routes/auth";
import * as codeStep from "~/routes/auth_.two-factor";
import { KeptPost, Session } from "~/server/models/index.server";
import { ADMIN_SESSION_IDLE_MS, sessionStorage } from "~/server/session.server";
import { flashOf, get, paidOrderWithSession, post, type Answer } from "../support/admin";
import { clearSignInLimit, signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";

useTestDatabase();

/**
 * An admin post refused because the session idled out is kept (minus secrets and files) for the
 * admin who signs in again, and comes back on its page after the password and the code; the layout tells every
 * admin page when the session ends, and "Stay signed in" extends it.
 */

const cookieNamed = (answer: Answer, name: string) =>
  answer.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith(`${name}=`)) ?? "";

const sessionIdOf = async (cookie: string) => (await sessionStorage().getSession(cookie)).id;

/** Moves a session's last sight back by `ms` (as if the admin had been away that long). */
const idle = async (cookie: string, ms: number) =>
  Session.updateOne({ _id: await sessionIdOf(cookie) }, { $set: { last_seen_at: new Date(Date.now() - ms) } });

/** An Edit Data post from its tab, as the browser sends it (the Referer names the page and its tab). */
function editPost(orderId: string, cookie: string, body: BodyInit, contentType?: string) {
  const headers: Record<string, string> = {
    Cookie: cookie,
    Referer: `http://localhost/admin/orders/${orderId}?tab=edit`,
  };
  if (contentType) headers["Content-Type"] = contentType;
  const request = new Request(`http://localhost/admin/orders/${orderId}?tab=edit`, { method: "POST", body, headers });
  return settle(order.action, request, { orderId });
}

/** What a route answered, returned or thrown; `data` is a refusal's sentence. */
async function settle(route: unknown, request: Request, params: Record<string, string> = {}): Promise<Answer> {
  let out: unknown;
  try {
    out = await (route as (a: object) => Promise<unknown>)({ request, params, context: {} });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    out = thrown;
  }
  if (!(out instanceof Response)) return { status: 200, location: null, headers: new Headers(), data: out };
  const text = out.status >= 400 ? await out.text() : null;
  return { status: out.status, location: out.headers.get("Location"), headers: out.headers, data: text };
}

const typed = {
  intent: "save-data",
  business_name: "Typed while away",
  business_description: "A long afternoon's words.",
  password: "hunter2",
  twoFactorCode: "123456",
  totp_code: "654321",
  recoveryCode: "abcd-efgh",
  api_token: "tok",
  client_secret: "s3cret",
  [FORM_KEY_FIELD]: "key-of-the-old-page",
};

async function expiredAdminPost() {
  const admin = await signedInUser({ admin: true });
  const { orderId } = await paidOrderWithSession(`kept-${Date.now()}@example.test`);
  await idle(admin.cookie, ADMIN_SESSION_IDLE_MS + 60_000);
  const answer = await editPost(orderId, admin.cookie, new URLSearchParams(typed));
  return { admin, orderId, answer, kept: cookieNamed(answer, "__kept_post") };
}

/** The layout's data for `path`, or the answer when it refused. */
async function layoutData(path: string, cookie: string) {
  const answer = await get(layout.loader, path, cookie);
  return { answer, data: answer.data as { endsAt: number | null; kept: { intent: string; values: object } | null } };
}

describe("a post whose admin session idled out", () => {
  it("is kept minus its secrets, and after the password and the code the admin is back on its page with it, once", async () => {
    const { admin, orderId, answer, kept } = await expiredAdminPost();
    const back = `/admin/orders/${orderId}?tab=edit`;
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`/auth?redirectTo=${encodeURIComponent(back)}`);
    expect(await flashOf(answer)).toEqual({
      kind: "info",
      ...AUTH_MESSAGES.signIn,
      description: ADMIN_SESSION_MESSAGES.keptUntilSignIn,
    });
    expect(kept).toMatch(/^__kept_post=./);
    const [doc] = await KeptPost.find({ owner_id: admin.user.id }).lean();
    expect(doc).toMatchObject({
      path: back,
      intent: "save-data",
      values: { business_name: typed.business_name, business_description: typed.business_description },
    });
    expect(Object.keys(doc.values as object).sort()).toEqual(["business_description", "business_name"]);
    expect(doc.expires_at.getTime() - Date.now()).toBeGreaterThan(59 * 60_000);

    await clearSignInLimit(admin.email);
    const password = await settle(
      signInPage.action,
      new Request("http://localhost/auth", {
        method: "POST",
        headers: { Cookie: kept, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          intent: "sign-in",
          email: admin.email,
          password: admin.password,
          redirectTo: back,
        }),
      }),
    );
    expect(password.status).toBe(303);
    expect(password.location).toBe(`/auth/two-factor?redirectTo=${encodeURIComponent(back)}`);
    const pending = cookieNamed(password, "__session");
    const code = await settle(
      codeStep.action,
      new Request("http://localhost/auth/two-factor", {
        method: "POST",
        headers: { Cookie: `${pending}; ${kept}`, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "verify", code: admin.code(), redirectTo: back }),
      }),
    );
    expect(code.status).toBe(303);
    expect(code.location).toBe(back);
    const signedIn = `${cookieNamed(code, "__session")}; ${kept}`;

    const first = await layoutData(back, signedIn);
    expect(first.data.kept).toEqual({ intent: "save-data", values: doc.values });
    expect(cookieNamed(first.answer, "__kept_post")).toBe("__kept_post=");
    expect(await KeptPost.countDocuments({ _id: doc._id })).toBe(0);
    expect((await layoutData(back, signedIn)).data.kept).toBeNull();
  });

  it("keeps a coupon's code: no admin page posts a sign-in code, so a field named code is what the admin typed", async () => {
    const admin = await signedInUser({ admin: true });
    await idle(admin.cookie, ADMIN_SESSION_IDLE_MS + 60_000);
    const body = new URLSearchParams({ intent: "create", code: "SPRING25", discount_type: "percentage" });
    const request = new Request("http://localhost/admin/coupons", {
      method: "POST",
      body,
      headers: { Cookie: admin.cookie, Referer: "http://localhost/admin/coupons" },
    });
    const answer = await settle(coupons.action, request);
    expect(answer.status).toBe(303);
    const [doc] = await KeptPost.find({ owner_id: admin.user.id }).lean();
    expect(doc).toMatchObject({
      path: "/admin/coupons",
      intent: "create",
      values: { code: "SPRING25", discount_type: "percentage" },
    });
  });

  it("is offered to no other admin, and never to a customer", async () => {
    const { orderId, kept } = await expiredAdminPost();
    const back = `/admin/orders/${orderId}?tab=edit`;
    const other = await signedInUser({ admin: true });
    expect((await layoutData(back, `${other.cookie}; ${kept}`)).data.kept).toBeNull();
    const customer = await signedInUser();
    const refused = await layoutData(back, `${customer.cookie}; ${kept}`);
    expect(refused.answer.location).toBe("/dashboard");
    expect(refused.data).toBeNull();
    expect(await KeptPost.countDocuments({ path: back })).toBe(1);
  });

  it("keeps nothing from a post without an admin's session cookie (a visitor, or a customer's)", async () => {
    const { orderId } = await paidOrderWithSession(`nokeep-${Date.now()}@example.test`);
    const customer = await signedInUser();
    for (const cookie of ["", customer.cookie]) {
      const answer = await editPost(orderId, cookie, new URLSearchParams(typed));
      expect([302, 303]).toContain(answer.status);
      expect(cookieNamed(answer, "__kept_post")).toBe("");
    }
    expect(await KeptPost.countDocuments({ path: `/admin/orders/${orderId}?tab=edit` })).toBe(0);
  });

  it("answers a post too large to keep, or no form at all, with a 4xx that says so, and keeps nothing", async () => {
    const admin = await signedInUser({ admin: true });
    const { orderId } = await paidOrderWithSession(`big-${Date.now()}@example.test`);
    await idle(admin.cookie, ADMIN_SESSION_IDLE_MS + 60_000);
    const cases: [BodyInit, string | undefined, number, string][] = [
      [
        new URLSearchParams({ intent: "save-data", business_description: "x".repeat(KEPT_POST_MAX_BYTES) }),
        undefined,
        413,
        ADMIN_SESSION_MESSAGES.tooLarge,
      ],
      [
        new URLSearchParams({ intent: "save-data", business_description: "x".repeat(5 * KEPT_POST_MAX_BYTES) }),
        undefined,
        413,
        ADMIN_SESSION_MESSAGES.tooLarge,
      ],
      ["a[99999999]=1&__proto__.x=1", "application/x-www-form-urlencoded", 400, "field we can't accept"],
      ['{"intent":"save-data"}', "application/json", 415, "web form"],
    ];
    for (const [body, type, status, message] of cases) {
      const answer = await editPost(orderId, admin.cookie, body, type);
      expect(answer.status).toBe(status);
      expect(answer.data).toContain(message);
    }
    expect(await KeptPost.countDocuments({ owner_id: admin.user.id })).toBe(0);
  });

  it("keeps the text fields of a post with a file, and drops the file", async () => {
    const admin = await signedInUser({ admin: true });
    const { orderId } = await paidOrderWithSession(`file-${Date.now()}@example.test`);
    await idle(admin.cookie, ADMIN_SESSION_IDLE_MS + 60_000);
    const form = new FormData();
    form.append("intent", "save-data");
    form.append("business_name", "With a file beside");
    form.append("logo", new File([new Uint8Array(2048)], "logo.png", { type: "image/png" }));
    const answer = await editPost(orderId, admin.cookie, form);
    expect(answer.status).toBe(303);
    const doc = await KeptPost.findOne({ owner_id: admin.user.id }).lean();
    expect(doc?.values).toEqual({ business_name: "With a file beside" });
  });

  it("is forgotten past its hour", async () => {
    const { admin, orderId, kept } = await expiredAdminPost();
    await KeptPost.updateOne({ owner_id: admin.user.id }, { $set: { expires_at: new Date(Date.now() - 1000) } });
    const again = await signedInUser({ admin: true, email: `again-${admin.email}` });
    const { data, answer } = await layoutData(`/admin/orders/${orderId}`, `${again.cookie}; ${kept}`);
    expect(data.kept).toBeNull();
    expect(cookieNamed(answer, "__kept_post")).toBe("__kept_post=");
    expect(await KeptPost.countDocuments({ owner_id: admin.user.id })).toBe(0);
  });
});

describe("the admin session's end, told and extended", () => {
  it("the layout gives every admin page the idle end (the load extends it); Stay signed in moves it on", async () => {
    const admin = await signedInUser({ admin: true });
    await idle(admin.cookie, 10 * 60_000);
    const loaded = (await layoutData("/admin", admin.cookie)).data.endsAt!;
    expect(Math.abs(loaded - (Date.now() + ADMIN_SESSION_IDLE_MS))).toBeLessThan(5_000);
    // The admin stayed on the page 28.5 minutes: the warning's time.
    await idle(admin.cookie, ADMIN_SESSION_IDLE_MS - 90_000);
    const stayed = await post(stay.action, "/admin/session", admin.cookie, { intent: STAY_SIGNED_IN });
    expect(stayed.status).toBe(200);
    const { endsAt } = stayed.data as { endsAt: number };
    expect(Math.abs(endsAt - (Date.now() + ADMIN_SESSION_IDLE_MS))).toBeLessThan(5_000);
    const doc = await Session.findById(await sessionIdOf(admin.cookie)).lean();
    expect(doc!.last_seen_at!.getTime() + ADMIN_SESSION_IDLE_MS).toBe(endsAt);
    expect((await post(stay.action, "/admin/session", admin.cookie, { intent: "nope" })).status).toBe(400);
  });

  it("a Stay signed in after the end sends the admin to sign in and keeps nothing", async () => {
    const admin = await signedInUser({ admin: true });
    await idle(admin.cookie, ADMIN_SESSION_IDLE_MS + 1000);
    const answer = await post(stay.action, "/admin/session", admin.cookie, { intent: STAY_SIGNED_IN });
    expect(answer.location).toBe(`/auth?redirectTo=${encodeURIComponent("/admin/session")}`);
    expect(cookieNamed(answer, "__kept_post")).toBe("");
  });
});
