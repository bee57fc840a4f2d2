import { describe, expect, it } from "vitest";
import { totpCode } from "~/domain/totp";
import {
  CODE_FAILURE_LIMIT,
  codeDelayMs,
  FREE_CODE_FAILURES,
  TWO_FACTOR_MESSAGES,
  WARN_OWNER_AFTER_FAILURES,
} from "~/domain/two-factor";
import { loader as adminLoader } from "~/routes/admin._index";
import { action as authAction } from "~/routes/auth";
import { action as codeAction, loader as codeLoader } from "~/routes/auth_.two-factor";
import { action as setupAction, loader as setupLoader } from "~/routes/auth_.two-factor_.setup";
import { loader as dashboardLoader } from "~/routes/dashboard";
import { getUser } from "~/server/auth.server";
import { OutboxMessage, Session, TwoFactor, TwoFactorFailure } from "~/server/models/index.server";
import { consumeRateLimit } from "~/server/rate-limit.server";
import { ADMIN_SESSION_IDLE_MS } from "~/server/session.server";
import { checkSecondFactor, failureRun, TWO_FACTOR_LIMITS } from "~/server/two-factor.server";
import { flashOf, type Answer } from "../support/admin";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";

useTestDatabase();

type Reply = Response & { init?: { status?: number; headers?: HeadersInit }; data?: Record<string, unknown> };
type Handler = (args: { request: Request; params: Record<string, string>; context: object }) => unknown;

let ip = 0;
async function call(
  handler: Handler,
  url: string,
  cookie: string,
  body?: Record<string, string>,
  address = `10.9.0.${++ip}`,
): Promise<Reply> {
  const request = new Request(`http://localhost${url}`, {
    method: body ? "POST" : "GET",
    body: body ? new URLSearchParams(body) : undefined,
    headers: { Cookie: cookie, "x-client-address": address, "User-Agent": "two-factor-test" },
  });
  try {
    return (await handler({ request, params: {}, context: {} })) as Reply;
  } catch (thrown) {
    return thrown as Reply;
  }
}
const status = (r: Reply) => r.init?.status ?? r.status;
const headersOf = (r: Reply) =>
  r instanceof Response ? r.headers : new Headers((r as { init?: { headers?: HeadersInit } }).init?.headers);
const sessionCookie = (r: Reply) =>
  headersOf(r)
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("__session=")) ?? "";
const formError = (r: Reply) =>
  ((r.data?.result ?? r.data) as { error?: Record<string, string[]> } | undefined)?.error?.[""]?.[0];

/** Signs in with the password; returns the answer and the (pending) session cookie it set. */
async function passwordStep(email: string, password: string, redirectTo = "/admin") {
  const answer = await call(authAction as Handler, "/auth", "", { intent: "sign-in", email, password, redirectTo });
  return { answer, cookie: sessionCookie(answer) };
}

describe("admin sign-in with a second factor", () => {
  it("asks for a code after the password; the password alone opens nothing; the code opens the admin panel with a new session id", async () => {
    const admin = await signedInUser({ admin: true });
    const { answer, cookie } = await passwordStep(admin.email, admin.password);
    expect(status(answer)).toBe(303);
    expect(answer.headers.get("Location")).toBe("/auth/two-factor?redirectTo=%2Fadmin");
    expect(cookie).not.toBe("");

    // Password only: no admin page, not even the dashboard.
    const refused = await call(adminLoader as Handler, "/admin", cookie);
    expect(refused.headers.get("Location")).toBe("/auth/two-factor?redirectTo=%2Fadmin");
    expect(await getUser(new Request("http://localhost/", { headers: { Cookie: cookie } }))).toBeNull();
    expect((await call(dashboardLoader as Handler, "/dashboard", cookie)).headers.get("Location")).toMatch(
      /^\/auth\/two-factor/,
    );
    expect(await call(codeLoader as Handler, "/auth/two-factor?redirectTo=%2Fadmin", cookie)).toMatchObject({
      redirectTo: "/admin",
      reprompt: false,
    });

    const done = await call(codeAction as Handler, "/auth/two-factor", cookie, {
      intent: "verify",
      code: admin.code(),
      redirectTo: "/admin",
    });
    expect(status(done)).toBe(303);
    expect(done.headers.get("Location")).toBe("/admin");
    const full = sessionCookie(done);
    expect(full).not.toBe(cookie);
    const ok = await call(adminLoader as Handler, "/admin", full);
    expect(ok).not.toBeInstanceOf(Response);
    // The pending session's id was ended, not promoted.
    expect(await Session.countDocuments({ user_id: admin.user.id })).toBe(2); // the helper's and this one
  });

  it("never accepts a code twice, even in another sign-in", async () => {
    const admin = await signedInUser({ admin: true });
    const code = admin.code();
    const first = await passwordStep(admin.email, admin.password);
    const ok = await call(codeAction as Handler, "/auth/two-factor", first.cookie, { intent: "verify", code });
    expect(status(ok)).toBe(303);
    const second = await passwordStep(admin.email, admin.password);
    const replay = await call(codeAction as Handler, "/auth/two-factor", second.cookie, { intent: "verify", code });
    expect(status(replay)).toBe(400);
    expect(formError(replay)).toBe(TWO_FACTOR_MESSAGES.codeUsed);
    // The step before the used one is refused too (the counter only moves forward).
    const older = await call(codeAction as Handler, "/auth/two-factor", second.cookie, {
      intent: "verify",
      code: admin.code(Date.now() - 30_000),
    });
    expect(status(older)).toBe(400);
    expect(sessionCookie(older)).toBe("");
  });

  it("accepts each recovery code once, and a recovery code past the code limit", async () => {
    const admin = await signedInUser({ admin: true });
    const [first, second] = admin.recoveryCodes;
    const a = await passwordStep(admin.email, admin.password);
    const used = await call(codeAction as Handler, "/auth/two-factor", a.cookie, { intent: "verify", code: first });
    expect(status(used)).toBe(303);
    const b = await passwordStep(admin.email, admin.password);
    const again = await call(codeAction as Handler, "/auth/two-factor", b.cookie, { intent: "verify", code: first });
    expect(status(again)).toBe(400);
    expect(formError(again)).toBe(TWO_FACTOR_MESSAGES.codeInvalid);

    // Wrong codes from everywhere use up the account's run: app codes are refused from then on...
    // (The run's slots are taken directly: 100 posts from 100 addresses say the same, slowly.)
    const run = (await TwoFactor.findById(admin.user.id).lean())!.failure_run;
    await TwoFactorFailure.insertMany(
      Array.from({ length: CODE_FAILURE_LIMIT }, (_, i) => ({
        _id: `${admin.user.id}:${run}:${i + 1}`,
        user_id: admin.user.id,
        at: new Date(Date.now() - 86_400_000),
      })),
      { ordered: false }, // the wrong recovery code above took the first slot already
    ).catch(() => undefined);
    const limited = await call(codeAction as Handler, "/auth/two-factor", b.cookie, {
      intent: "verify",
      code: admin.code(),
    });
    expect(status(limited)).toBe(429);
    expect(formError(limited)).toBe(TWO_FACTOR_MESSAGES.codesLocked);
    // ...but the owner's recovery code still works (typed with a dash and capitals, as shown).
    const owner = await call(codeAction as Handler, "/auth/two-factor", b.cookie, {
      intent: "verify",
      code: `${second.slice(0, 5).toUpperCase()}-${second.slice(5)}`,
    });
    expect(status(owner)).toBe(303);
    const stored = await TwoFactor.findById(admin.user.id).lean();
    expect(stored?.recovery_codes.filter((c) => c.used_at)).toHaveLength(2);
    // The recovery code ended the run: the next sign-in's authenticator code works again, and the run's
    // slots are gone (the collection keeps only runs still going).
    expect(stored?.failure_run).not.toBe(run);
    expect(await TwoFactorFailure.countDocuments({ user_id: admin.user.id })).toBe(0);
    const c = await passwordStep(admin.email, admin.password);
    const next = await call(codeAction as Handler, "/auth/two-factor", c.cookie, {
      intent: "verify",
      code: admin.code(Date.now() + 30_000),
    });
    expect(status(next)).toBe(303);
  });

  it("lets one address's used-up attempts stop only that address: the owner's code still works from anywhere else", async () => {
    const admin = await signedInUser({ admin: true });
    const attacker = await passwordStep(admin.email, admin.password); // the attacker has the password
    // The address's attempts are taken directly (wrong codes would also start the account's run of waits, below).
    for (let i = 0; i < TWO_FACTOR_LIMITS.accountFromAddress.max; i++)
      await consumeRateLimit(TWO_FACTOR_LIMITS.accountFromAddress, `${admin.user.id}\n10.66.0.1`);
    const refused = await call(
      codeAction as Handler,
      "/auth/two-factor",
      attacker.cookie,
      { intent: "verify", code: admin.code() },
      "10.66.0.1",
    );
    expect(status(refused)).toBe(429);
    expect(formError(refused)).toBe(TWO_FACTOR_MESSAGES.tooMany);

    const owner = await passwordStep(admin.email, admin.password);
    const ok = await call(
      codeAction as Handler,
      "/auth/two-factor",
      owner.cookie,
      { intent: "verify", code: admin.code() },
      "10.77.0.1",
    );
    expect(status(ok)).toBe(303);
    expect((await TwoFactor.findById(admin.user.id).lean())?.recovery_codes.filter((c) => c.used_at)).toHaveLength(0);
  });
});

describe("enrolment", () => {
  it("sends an admin without a second factor to set one up, shows the key as an SVG QR code and text, and gives ten recovery codes once", async () => {
    const admin = await signedInUser({ admin: true, secondFactor: false });
    const { answer, cookie } = await passwordStep(admin.email, admin.password);
    expect(answer.headers.get("Location")).toBe("/auth/two-factor/setup?redirectTo=%2Fadmin");
    expect((await call(adminLoader as Handler, "/admin", cookie)).headers.get("Location")).toBe(
      "/auth/two-factor/setup?redirectTo=%2Fadmin",
    );
    const view = (await call(
      setupLoader as Handler,
      "/auth/two-factor/setup?redirectTo=%2Fadmin",
      cookie,
    )) as unknown as {
      enrolment: { secret: string; qrSvg: string };
      admin: boolean;
    };
    expect(view.admin).toBe(true);
    expect(view.enrolment.qrSvg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const secret = view.enrolment.secret.replace(/ /g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // Stored sealed, never in the clear.
    const stored = await TwoFactor.findById(admin.user.id).lean();
    expect(stored?.pending_secret).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain(secret);

    const wrong = await call(setupAction as Handler, "/auth/two-factor/setup?redirectTo=%2Fadmin", cookie, {
      intent: "confirm",
      code: "000000",
    });
    expect(status(wrong)).toBe(400);
    expect(formError(wrong)).toBe(TWO_FACTOR_MESSAGES.enrolInvalid);

    const done = await call(setupAction as Handler, "/auth/two-factor/setup?redirectTo=%2Fadmin", cookie, {
      intent: "confirm",
      code: totpCode(secret, Date.now()),
    });
    const codes = (done.data as { recoveryCodes: string[]; continueTo: string }).recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((done.data as { continueTo: string }).continueTo).toBe("/admin");
    const full = sessionCookie(done);
    expect(await call(adminLoader as Handler, "/admin", full)).not.toBeInstanceOf(Response);
    const enabled = await TwoFactor.findById(admin.user.id).lean();
    expect(enabled?.secret).toMatch(/^v1\./);
    expect(enabled?.recovery_codes).toHaveLength(10);
    for (const c of codes) expect(JSON.stringify(enabled)).not.toContain(c.replace("-", ""));
    // Shown once: confirming again does nothing more.
    const again = await call(setupAction as Handler, "/auth/two-factor/setup", full, {
      intent: "confirm",
      code: totpCode(secret, Date.now()),
    });
    expect(again.headers.get("Location")).toBe("/dashboard");
  });

  it("starts an enrolment that ran out again, saying so, and refuses a code for it", async () => {
    const admin = await signedInUser({ admin: true, secondFactor: false });
    const { cookie } = await passwordStep(admin.email, admin.password);
    const here = "/auth/two-factor/setup?redirectTo=%2Fadmin";
    const view = (await call(setupLoader as Handler, here, cookie)) as unknown as { enrolment: { secret: string } };
    const secret = view.enrolment.secret.replace(/ /g, "");
    await TwoFactor.updateOne({ _id: admin.user.id }, { $set: { pending_at: new Date(Date.now() - 2 * 3_600_000) } });
    const late = await call(setupAction as Handler, here, cookie, {
      intent: "confirm",
      code: totpCode(secret, Date.now()),
    });
    expect(status(late)).toBe(303);
    expect(late.headers.get("Location")).toBe(here);
    expect(await flashOf(late as unknown as Answer)).toEqual({
      kind: "error",
      title: TWO_FACTOR_MESSAGES.enrolExpired,
    });
    expect((await TwoFactor.findById(admin.user.id).lean())?.secret ?? null).toBeNull();
  });

  it("lets a customer opt in from the dashboard and off again with a code", async () => {
    const customer = await signedInUser();
    const elsewhere = (await passwordStep(customer.email, customer.password, "/dashboard")).cookie;
    const start = await call(
      setupAction as Handler,
      "/auth/two-factor/setup?redirectTo=%2Fdashboard",
      customer.cookie,
      {
        intent: "start",
      },
    );
    expect(start.headers.get("Location")).toBe("/auth/two-factor/setup?redirectTo=%2Fdashboard");
    const view = (await call(setupLoader as Handler, "/auth/two-factor/setup", customer.cookie)) as unknown as {
      enrolment: { secret: string };
    };
    const secret = view.enrolment.secret.replace(/ /g, "");
    const done = await call(setupAction as Handler, "/auth/two-factor/setup", customer.cookie, {
      intent: "confirm",
      code: totpCode(secret, Date.now()),
    });
    const full = sessionCookie(done);
    expect(full).not.toBe("");
    // Another browser's password-only session now owes a code; this one, where the code was typed, is signed in.
    expect(await getUser(new Request("http://localhost/", { headers: { Cookie: elsewhere } }))).toBeNull();
    expect((await getUser(new Request("http://localhost/", { headers: { Cookie: full } })))?.twoFactor).toBe(true);
    // Next sign-in asks for a code.
    const { answer } = await passwordStep(customer.email, customer.password, "/dashboard");
    expect(answer.headers.get("Location")).toBe("/auth/two-factor?redirectTo=%2Fdashboard");

    const off = await call(setupAction as Handler, "/auth/two-factor/setup", full, {
      intent: "disable",
      code: totpCode(secret, Date.now() + 30_000),
    });
    expect(off.headers.get("Location")).toBe("/dashboard");
    expect(await TwoFactor.exists({ _id: customer.user.id })).toBeNull();
    const after = sessionCookie(off);
    expect((await getUser(new Request("http://localhost/", { headers: { Cookie: after } })))?.twoFactor).toBe(false);
  });
});

describe("admin sessions", () => {
  it("end after 30 minutes idle or 12 hours, while a customer's last longer", async () => {
    const admin = await signedInUser({ admin: true });
    const customer = await signedInUser();
    const req = (cookie: string) => new Request("http://localhost/", { headers: { Cookie: cookie } });
    for (const user_id of [admin.user.id, customer.user.id])
      await Session.updateMany(
        { user_id },
        { $set: { last_seen_at: new Date(Date.now() - ADMIN_SESSION_IDLE_MS - 1000) } },
      );
    expect(await getUser(req(admin.cookie))).toBeNull();
    expect(await getUser(req(customer.cookie))).not.toBeNull();

    const busy = await signedInUser({ admin: true });
    const doc = await Session.findOne({ user_id: busy.user.id }).lean();
    expect(doc?.admin).toBe(true);
    expect(doc!.expires_at!.getTime() - doc!.created_at!.getTime()).toBeLessThanOrEqual(12 * 3_600_000 + 1000);
    await Session.updateOne({ _id: doc!._id }, { $set: { expires_at: new Date(Date.now() - 1000) } });
    expect(await getUser(req(busy.cookie))).toBeNull();
  });
});

describe("the account's run of wrong codes", () => {
  const HOUR = 3_600_000;
  /** One wrong code at `now` from its own address (the guesser has many). */
  const guess = (account: { id: string; email: string }, now: number, code = "000000") =>
    checkSecondFactor(account, code, `10.35.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`, {
      now,
    });

  it("slows wrong codes down from the sixth, never renews at the hour, and e-mails the owner once at the tenth", async () => {
    const admin = await signedInUser({ admin: true });
    const account = { id: admin.user.id, email: admin.email };
    // Just before an hour's boundary, as the attack in the issue did.
    let now = Math.ceil(Date.now() / HOUR) * HOUR - 60_000;
    for (let i = 0; i < FREE_CODE_FAILURES; i++) expect((await guess(account, now)).ok).toBe(false);
    // The sixth at once is held, whatever address it comes from, and is not counted.
    const held = await guess(account, now);
    expect(held).toMatchObject({ ok: false, status: 429, message: TWO_FACTOR_MESSAGES.codeWait(codeDelayMs(5)) });
    // Past the hour's boundary nothing renews: the wait still runs from the last wrong code.
    now += codeDelayMs(5) - 1;
    expect(await guess(account, now)).toMatchObject({ status: 429 });
    now += 1;
    expect(await guess(account, now)).toMatchObject({ status: 400, message: TWO_FACTOR_MESSAGES.codeInvalid });
    expect(await failureRun(account.id, (await TwoFactor.findById(account.id).lean())!.failure_run)).toEqual({
      failures: FREE_CODE_FAILURES + 1,
      lastAt: now,
    });
    // On to the tenth, each after its wait: a wrong recovery code counts in the same run.
    for (let n = FREE_CODE_FAILURES + 1; n < WARN_OWNER_AFTER_FAILURES; n++) {
      now += codeDelayMs(n);
      expect(await guess(account, now, n % 2 ? "aaaaa-bbbbb" : "000000")).toMatchObject({ status: 400 });
    }
    const warnings = () => OutboxMessage.find({ to: admin.email, key: new RegExp("^two-factor-warning:") }).lean();
    const [warning, ...more] = await warnings();
    expect(more).toHaveLength(0);
    expect(warning.subject).toBe("Someone is trying codes to sign in to your account");
    expect(warning.text).toContain("Someone who knows your password is trying codes");
    expect(warning.text).toMatch(/from the internet address 10\.35\.\d+\.\d+/);
    // The eleventh wrong code does not e-mail again.
    now += codeDelayMs(WARN_OWNER_AFTER_FAILURES);
    await guess(account, now);
    expect(await warnings()).toHaveLength(1);
    // The owner's right code, once the wait is over, works and ends the run.
    now += codeDelayMs(WARN_OWNER_AFTER_FAILURES + 1);
    expect(await checkSecondFactor(account, admin.code(now), "10.36.0.1", { now })).toMatchObject({
      ok: true,
    });
    expect((await failureRun(account.id, (await TwoFactor.findById(account.id).lean())!.failure_run)).failures).toBe(0);
  });

  it("never holds up a session that passed the second factor already, and counts nothing from it", async () => {
    const admin = await signedInUser({ admin: true });
    const account = { id: admin.user.id, email: admin.email };
    const now = Date.now();
    for (let i = 0; i < FREE_CODE_FAILURES; i++) await guess(account, now);
    expect(await guess(account, now)).toMatchObject({ status: 429 });
    // The signed-in admin's fresh proof: the route says trusted for a signed-in session.
    const proof = await call(codeAction as Handler, "/auth/two-factor", admin.cookie, {
      intent: "verify",
      code: admin.code(Date.now() + 30_000),
    });
    expect(status(proof)).toBe(303);
  });
});
