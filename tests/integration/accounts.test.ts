import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "~/domain/account";
import { FORM_KEY_FIELD } from "~/domain/form-key";
import { action as authAction, loader as authLoader } from "~/routes/auth";
import { action as forgotAction } from "~/routes/auth_.forgot-password";
import { action as resetAction } from "~/routes/auth_.reset-password";
import { action as signOutAction } from "~/routes/auth_.sign-out";
import { action as verifyAction } from "~/routes/auth_.verify";
import { loader as dashboardLoader } from "~/routes/dashboard";
import { newFormKey } from "~/server/form-keys.server";
import { getUser, SIGN_IN_LIMITS, SLOW_SIGN_IN_MS } from "~/server/auth.server";
import { requestPasswordReset } from "~/server/password-reset.server";
import { AccountToken, Order, OutboxMessage, Session, User } from "~/server/models/index.server";
import { SESSION_IDLE_MS } from "~/server/session.server";
import { flashOf, type Answer } from "../support/admin";
import { paidOrder } from "../support/app-data";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";
import { messagesTo } from "../support/mailpit";

useTestDatabase();

type Errors = { error?: Record<string, string[]> };
type Reply = Response & { init?: { status?: number }; data?: Errors & { result?: Errors } };
type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: Record<string, unknown>;
}) => Promise<unknown> | unknown;

let ip = 0;
/** Posts a form to a route action as a browser would (its own client address unless given). */
async function post(
  handler: Handler,
  body: Record<string, string>,
  options: { cookie?: string; address?: string; url?: string } = {},
): Promise<Reply> {
  const request = new Request(options.url ?? "http://localhost/auth", {
    method: "POST",
    body: new URLSearchParams(body),
    headers: { Cookie: options.cookie ?? "", "x-client-address": options.address ?? `10.0.0.${++ip}` },
  });
  try {
    return (await handler({ request, params: {}, context: {} })) as Reply;
  } catch (thrown) {
    return thrown as Reply;
  }
}
async function get(handler: Handler, url: string, cookie = ""): Promise<Reply> {
  try {
    return (await handler({
      request: new Request(url, { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    })) as Reply;
  } catch (thrown) {
    return thrown as Reply;
  }
}
const status = (r: Reply) => r.init?.status ?? r.status;
/** The form-level message, whether the action answered with the submission itself or inside { result }. */
const formError = (r: Reply) => (r.data?.result ?? r.data)?.error?.[""]?.[0];
const cookieFrom = (r: Reply, name = "__session") =>
  (r.headers?.get("Set-Cookie") ?? "")
    .split(/,(?=\s*__)/)
    .map((c) => c.trim().split(";")[0])
    .find((c) => c.startsWith(`${name}=`)) ?? "";
const email = () => `acct-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
/** The link in the newest e-mail to `to`, waiting a little for it: a reset link is queued just after the answer. */
const tokenFromMail = async (to: string, path: string) => {
  for (let tries = 0; tries < 50; tries++) {
    const mail = await OutboxMessage.findOne({ to }).sort({ created_at: -1 }).lean();
    const token = new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail?.text ?? "")?.[1];
    if (token) return token;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return "";
};

describe("sign up", () => {
  it("answers the same for a new and a registered address, and signs nobody in before the address is confirmed", async () => {
    const taken = await signedInUser();
    const fresh = email();
    const a = await post(authAction, { intent: "sign-up", email: fresh, password: "secret-1" });
    const b = await post(authAction, { intent: "sign-up", email: taken.email, password: "other-pw" });
    for (const r of [a, b]) {
      expect(r.status).toBe(303);
      expect(r.headers.get("Location")).toBe("/auth");
      expect(cookieFrom(r)).toBe("");
    }
    expect(await OutboxMessage.exists({ to: fresh, subject: "Confirm your e-mail address" })).toBeTruthy();
    expect(await OutboxMessage.exists({ to: taken.email, subject: "You already have an account" })).toBeTruthy();
    expect((await User.findOne({ email: taken.email }).lean())?.password_hash).not.toContain("other-pw");
  });

  it("refuses a short password and a missing e-mail with the spec's words", async () => {
    const weak = await post(authAction, { intent: "sign-up", email: email(), password: "12345" });
    expect(status(weak)).toBe(400);
    expect(weak.data?.result?.error?.password).toEqual([AUTH_MESSAGES.weak]);
    const missing = await post(authAction, { intent: "sign-in", email: "", password: "" });
    expect(missing.data?.result?.error?.email).toEqual([AUTH_MESSAGES.emailMissing]);
    expect(status(await post(authAction, { intent: "drop-tables", email: email(), password: "123456" }))).toBe(400);
  });
});

describe("sign in and sessions", () => {
  it("says the same for an unknown address and a wrong password", async () => {
    const user = await signedInUser();
    const wrong = await post(authAction, { intent: "sign-in", email: user.email, password: "not-it" });
    const unknown = await post(authAction, { intent: "sign-in", email: email(), password: "not-it" });
    for (const r of [wrong, unknown]) {
      expect(status(r)).toBe(401);
      expect(formError(r)).toBe("Invalid email or password");
    }
  });

  it("starts a new session id at sign-in, honours only a same-site redirectTo, and ends the session on the server at sign-out", async () => {
    const user = await signedInUser();
    const before = user.cookie;
    const r = await post(
      authAction,
      { intent: "sign-in", email: user.email, password: user.password, redirectTo: "https://evil.example/x" },
      { cookie: before },
    );
    expect(r.status).toBe(303);
    expect(r.headers.get("Location")).toBe("/dashboard");
    const after = cookieFrom(r);
    expect(after).toMatch(/^__session=/);
    expect(after).not.toBe(before);
    // The pre-sign-in session is gone on the server.
    expect(await getUser(new Request("http://localhost/", { headers: { Cookie: before } }))).toBeNull();
    expect((await getUser(new Request("http://localhost/", { headers: { Cookie: after } })))?.email).toBe(user.email);

    const same = await post(authAction, {
      intent: "sign-in",
      email: user.email,
      password: user.password,
      redirectTo: "/maintenance",
    });
    expect(same.headers.get("Location")).toBe("/maintenance");

    const out = await post(signOutAction, {}, { cookie: after, url: "http://localhost/auth/sign-out" });
    expect(out.status).toBe(303);
    expect(out.headers.get("Location")).toBe("/");
    // Replaying the old cookie after sign-out opens nothing.
    expect(await getUser(new Request("http://localhost/", { headers: { Cookie: after } }))).toBeNull();
    const dash = await get(dashboardLoader as Handler, "http://localhost/dashboard", after);
    expect(dash.headers.get("Location")).toBe("/auth?redirectTo=%2Fdashboard");
  });

  it("times a session out when idle, and at its absolute end however busy", async () => {
    const idle = await signedInUser();
    const ids = await Session.find({ user_id: idle.user.id }).lean();
    expect(ids).toHaveLength(1);
    await Session.updateOne(
      { _id: ids[0]._id },
      { $set: { last_seen_at: new Date(Date.now() - SESSION_IDLE_MS - 1000) } },
    );
    expect(await getUser(new Request("http://localhost/", { headers: { Cookie: idle.cookie } }))).toBeNull();
    expect(await Session.exists({ _id: ids[0]._id })).toBeNull();

    const busy = await signedInUser();
    await Session.updateOne(
      { user_id: busy.user.id },
      { $set: { expires_at: new Date(Date.now() - 1000), last_seen_at: new Date() } },
    );
    expect(await getUser(new Request("http://localhost/", { headers: { Cookie: busy.cookie } }))).toBeNull();
  });

  it("treats a forged session cookie as no session", async () => {
    expect(
      await getUser(new Request("http://localhost/", { headers: { Cookie: "__session=forged.value" } })),
    ).toBeNull();
    expect(await getUser(new Request("http://localhost/", { headers: { Cookie: "__session=%E0%A4%A" } }))).toBeNull();
  });

  it("sends a signed-in visitor from /auth to the dashboard", async () => {
    const user = await signedInUser();
    const r = await get(authLoader as Handler, "http://localhost/auth?redirectTo=//evil.example", user.cookie);
    expect(r.headers.get("Location")).toBe("/dashboard");
  });

  it("falls back to /dashboard for any redirectTo that is not a plain same-site path, never a 500", async () => {
    const user = await signedInUser();
    for (const to of ["/%E3%80%80/evil.com", "/%C3%A9", "%2F%2Fevil.com", "/%09/evil.com"]) {
      const r = await get(authLoader as Handler, `http://localhost/auth?redirectTo=${to}`, user.cookie);
      expect(status(r), to).toBe(302);
      expect(r.headers.get("Location"), to).toBe("/dashboard");
      const page = (await get(authLoader as Handler, `http://localhost/auth?redirectTo=${to}`)) as unknown as {
        redirectTo: string;
      };
      expect(page.redirectTo, to).toBe("/dashboard");
      const posted = await post(authAction, {
        intent: "sign-in",
        email: user.email,
        password: user.password,
        redirectTo: decodeURIComponent(to),
      });
      expect(status(posted), to).toBe(303);
      expect(posted.headers.get("Location"), to).toBe("/dashboard");
    }
  });

  it("limits guesses at an account from one address, without saying whether it exists", async () => {
    const target = email();
    const answers = [];
    for (let i = 0; i < SIGN_IN_LIMITS.accountFromAddress.max + 2; i++)
      answers.push(
        status(
          await post(authAction, { intent: "sign-in", email: target, password: "guess" }, { address: "10.7.0.1" }),
        ),
      );
    expect(answers.slice(0, SIGN_IN_LIMITS.accountFromAddress.max).every((s) => s === 401)).toBe(true);
    expect(answers.at(-1)).toBe(429);
  });

  it("never locks the owner out: an attacker's failed sign-ins and reset requests leave sign-in and reset working for the owner", async () => {
    const owner = await signedInUser();
    const attacker = "10.66.0.1";
    for (let i = 0; i < 3; i++)
      await post(
        forgotAction,
        { email: owner.email },
        { url: "http://localhost/auth/forgot-password", address: attacker },
      );
    const guesses = [];
    for (let i = 0; i < 12; i++)
      guesses.push(
        status(
          await post(authAction, { intent: "sign-in", email: owner.email, password: "guess" }, { address: attacker }),
        ),
      );
    expect(guesses.at(-1)).toBe(429); // the attacker is slowed
    // The owner, from their own address: signs in, and can ask for a reset link.
    const signIn = await post(
      authAction,
      { intent: "sign-in", email: owner.email, password: owner.password },
      { address: "10.55.0.1" },
    );
    expect(signIn.status).toBe(303);
    const reset = await post(
      forgotAction,
      { email: owner.email },
      { url: "http://localhost/auth/forgot-password", address: "10.55.0.1" },
    );
    expect(reset.status).toBe(303);
    expect(reset.headers.get("Location")).toBe("/auth");

    // Guesses from many addresses at once slow the account down, but the right password still gets in.
    await Promise.all(
      Array.from({ length: SIGN_IN_LIMITS.account.max + 2 }, (_, i) =>
        post(authAction, { intent: "sign-in", email: owner.email, password: "guess" }, { address: `10.77.${i}.1` }),
      ),
    );
    const slowed = Date.now();
    const still = await post(
      authAction,
      { intent: "sign-in", email: owner.email, password: owner.password },
      { address: "10.55.0.2" },
    );
    expect(still.status).toBe(303);
    expect(Date.now() - slowed).toBeGreaterThanOrEqual(SLOW_SIGN_IN_MS - 50);
  });
});

describe("password reset", () => {
  it("e-mails a link that works once, even when used twice at once, and ends the other sessions", async () => {
    const user = await signedInUser({ confirmed: false });
    const r = await post(
      forgotAction,
      { email: user.email.toUpperCase() },
      { url: "http://localhost/auth/forgot-password" },
    );
    expect(r.headers.get("Location")).toBe("/auth");
    // An unknown address gets the same answer and no mail.
    const nobody = email();
    expect(
      (await post(forgotAction, { email: nobody }, { url: "http://localhost/auth/forgot-password" })).headers.get(
        "Location",
      ),
    ).toBe("/auth");
    expect(await OutboxMessage.exists({ to: nobody })).toBeNull();

    const token = await tokenFromMail(user.email, "/auth/reset-password");
    expect(token).not.toBe("");
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(resetAction, { token, password: `new-password-${i}` }, { url: "http://localhost/auth/reset-password" }),
      ),
    );
    expect(results.filter((x) => x.status === 303)).toHaveLength(1);
    expect(results.filter((x) => status(x) === 410)).toHaveLength(9);
    // The old session no longer works.
    expect(await getUser(new Request("http://localhost/", { headers: { Cookie: user.cookie } }))).toBeNull();
    // The link proved the address.
    expect((await User.findById(user.user.id).lean())?.email_verified_at).toBeInstanceOf(Date);
  });

  it("ends every older link when a new one is issued or one is used", async () => {
    const user = await signedInUser();
    const links: string[] = [];
    for (let i = 0; i < 3; i++) {
      await (
        await requestPasswordReset(user.email, `10.44.${i}.1`)
      )?.done;
      links.push(await tokenFromMail(user.email, "/auth/reset-password"));
    }
    expect(new Set(links).size).toBe(3);
    const use = (token: string) =>
      post(resetAction, { token, password: "a-new-password" }, { url: "http://localhost/auth/reset-password" });
    // Issuing the third ended the first two.
    expect(status(await use(links[0]))).toBe(410);
    expect(status(await use(links[1]))).toBe(410);
    expect((await use(links[2])).status).toBe(303);
    expect(status(await use(links[2]))).toBe(410);

    // Using a link ends every other reset link of the account, however it came to be live.
    await (
      await requestPasswordReset(user.email, "10.44.9.1")
    )?.done;
    const older = await tokenFromMail(user.email, "/auth/reset-password");
    await AccountToken.create({
      _id: "b".repeat(64),
      purpose: "reset",
      user_id: user.user.id,
      email: user.email,
      expires_at: new Date(Date.now() + 3_600_000),
    });
    expect((await use(older)).status).toBe(303);
    expect(await AccountToken.countDocuments({ user_id: user.user.id, purpose: "reset", used_at: null })).toBe(0);
  });

  it("answers an unknown address with the same page, and e-mails it nothing", async () => {
    const user = await signedInUser();
    const nobody = email();
    const [known, unknown] = await Promise.all([
      post(forgotAction, { email: user.email }, { url: "http://localhost/auth/forgot-password" }),
      post(forgotAction, { email: nobody }, { url: "http://localhost/auth/forgot-password" }),
    ]);
    for (const r of [known, unknown]) {
      expect(r.status).toBe(303);
      expect(r.headers.get("Location")).toBe("/auth");
    }
    expect(await flashOf({ headers: unknown.headers } as Answer)).toEqual(
      await flashOf({ headers: known.headers } as Answer),
    );
    expect([...unknown.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());

    // The work that differs runs after the answer; once it has finished, only the account got a link.
    const again = await requestPasswordReset(nobody, "10.9.9.9");
    await again?.done;
    expect(await tokenFromMail(user.email, "/auth/reset-password")).not.toBe("");
    expect(await OutboxMessage.exists({ to: nobody })).toBeNull();
    expect(await AccountToken.exists({ email: nobody })).toBeNull();
    expect(await messagesTo(nobody)).toHaveLength(0);
  });

  it("refuses an expired link", async () => {
    const user = await signedInUser();
    await post(forgotAction, { email: user.email }, { url: "http://localhost/auth/forgot-password" });
    const token = await tokenFromMail(user.email, "/auth/reset-password");
    await AccountToken.updateMany({ user_id: user.user.id }, { $set: { expires_at: new Date(Date.now() - 1000) } });
    const r = await post(
      resetAction,
      { token, password: "another-one" },
      { url: "http://localhost/auth/reset-password" },
    );
    expect(status(r)).toBe(410);
    expect(formError(r)).toBe(AUTH_MESSAGES.resetInvalid);
  });
});

describe("e-mail confirmation and guest orders", () => {
  it("joins guest orders with the address only once the account proved it, with the link and its password", async () => {
    const address = email();
    const guest = await Order.create({ email: address, amount_total: 30_000, status: "paid" });
    await post(authAction, { intent: "sign-up", email: address, password: "owner-pw-1" });
    const user = await User.findOne({ email: address }).lean();

    // Signing in before confirming sees no guest order.
    const signIn = await post(authAction, { intent: "sign-in", email: address, password: "owner-pw-1" });
    expect((await Order.findById(guest._id).lean())?.user_id).toBeNull();
    const dash = (await get(
      dashboardLoader as Handler,
      "http://localhost/dashboard",
      cookieFrom(signIn),
    )) as unknown as { orders: unknown[] };
    expect(dash.orders).toEqual([]);

    const token = await tokenFromMail(address, "/auth/verify");
    const wrong = await post(
      verifyAction,
      { intent: "confirm", token, password: "not-the-password" },
      { url: "http://localhost/auth/verify" },
    );
    expect(status(wrong)).toBe(400);
    expect((await Order.findById(guest._id).lean())?.user_id).toBeNull();

    const ok = await post(
      verifyAction,
      { intent: "confirm", token, password: "owner-pw-1" },
      { url: "http://localhost/auth/verify" },
    );
    expect(ok.status).toBe(303);
    expect((await Order.findById(guest._id).lean())?.user_id).toBe(String(user!._id));
    // Used once.
    expect(
      status(
        await post(
          verifyAction,
          { intent: "confirm", token, password: "owner-pw-1" },
          { url: "http://localhost/auth/verify" },
        ),
      ),
    ).toBe(400);
  });

  it("joins a guest order paid with a confirmed account's address at payment; viewing the dashboard writes nothing", async () => {
    const { user, email: address, cookie } = await signedInUser();
    // Confirmed: a guest order paid with the address joins the account when it is paid.
    const { orderId } = await paidOrder(address);
    expect((await Order.findById(orderId).lean())?.user_id).toBe(user.id);
    // An order that is not paid through fulfilment stays a guest order, however often the dashboard is viewed.
    const stray = await Order.create({ email: address, amount_total: 30_000, status: "paid" });
    const dash = (await get(dashboardLoader as Handler, "http://localhost/dashboard", cookie)) as unknown as {
      orders: { id: string }[];
    };
    expect(dash.orders.map((o) => o.id)).toEqual([orderId]);
    expect((await Order.findById(stray._id).lean())?.user_id).toBeNull();

    // Not confirmed: the payment leaves the order a guest order.
    const other = await signedInUser({ confirmed: false });
    const unconfirmed = await paidOrder(other.email);
    expect((await Order.findById(unconfirmed.orderId).lean())?.user_id).toBeNull();
  });

  it("counts the confirmation page's password guesses against the account's sign-in limit", async () => {
    const address = email();
    await post(authAction, { intent: "sign-up", email: address, password: "owner-pw-1" });
    const token = await tokenFromMail(address, "/auth/verify");
    const attacker = "10.33.0.1";
    const answers = [];
    for (let i = 0; i < SIGN_IN_LIMITS.accountFromAddress.max; i++)
      answers.push(
        status(
          await post(
            verifyAction,
            { intent: "confirm", token, password: `guess-${i}` },
            { url: "http://localhost/auth/verify", address: attacker },
          ),
        ),
      );
    expect(answers.every((s) => s === 400)).toBe(true);
    const right = await post(
      verifyAction,
      { intent: "confirm", token, password: "owner-pw-1" },
      { url: "http://localhost/auth/verify", address: attacker },
    );
    expect(status(right)).toBe(429);
    expect(formError(right)).toBe(AUTH_MESSAGES.tooMany);
    expect((await User.findOne({ email: address }).lean())?.email_verified_at).toBeNull();
  });
});

describe("forgot password on a lost answer", () => {
  it("answers a resent press as the first and sends one link, which still works", async () => {
    const owner = await signedInUser();
    const press = { email: owner.email, [FORM_KEY_FIELD]: newFormKey() };
    const options = { url: "http://localhost/auth/forgot-password", address: "10.66.0.1" };
    for (let i = 0; i < 2; i++) {
      const reply = await post(forgotAction, press, options);
      expect(reply.status).toBe(303);
      expect((await flashOf({ headers: reply.headers } as Answer))?.title).toBe(AUTH_MESSAGES.resetSent.title);
    }
    await expect.poll(() => OutboxMessage.countDocuments({ to: owner.email })).toBe(1);
    expect(await AccountToken.countDocuments({ user_id: owner.user.id, purpose: "reset" })).toBe(1);
  });
});
