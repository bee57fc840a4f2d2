import { createHash, randomInt, randomUUID } from "node:crypto";
import mongoose from "mongoose";
import QRCode from "qrcode";
import { matchTotp, newTotpSecret, totpUri } from "~/domain/totp";
import {
  CODE_FAILURE_LIMIT,
  ENROLMENT_VALID_MS,
  isAppCode,
  isRecoveryCode,
  RECOVERY_CODE_COUNT,
  nextCodeAllowedAt,
  TWO_FACTOR_MESSAGES,
  WARN_OWNER_AFTER_FAILURES,
} from "~/domain/two-factor";
import { claimOnce, isDuplicateKeyError } from "./db.server";
import { absoluteUrl } from "./env.server";
import { log } from "./log.server";
import { codesBeingTried } from "./mail/messages.server";
import { queueMail } from "./mail/outbox.server";
import { TwoFactor, TwoFactorFailure, User } from "./models/index.server";
import { consumeRateLimit, type RateLimit } from "./rate-limit.server";
import { isSealedUnderNewest, open, seal } from "./secret-box.server";

/**
 * Two-factor sign-in's records: enrolment (a key shown once as a QR code and as
 * text, confirmed by a first code, then ten single-use recovery codes), checking
 * a code (never the same time step twice, within the account's limits) and
 * reset. Keys are sealed at rest (secret-box.server.ts); recovery codes are kept
 * only as hashes. Sessions and what a checked code unlocks are auth.server.ts's.
 */

const PURPOSE = "totp-secret";
const MINUTE = 60_000;
/**
 * Code attempts, for an attacker who has the password (the password's own sign-in limits are separate). As with
 * the password (OWASP ASVS 2.2.1), the hard limit falls on the guesser's address: 10 attempts at one account from
 * one address per 15 minutes. From every address together an account takes wrong codes in a row with a growing
 * wait, CODE_FAILURE_LIMIT at most and never renewed by the clock (domain/two-factor.ts); the
 * owner is e-mailed at the tenth. A recovery code (50 random bits) is checked past the wait and the limit, so the
 * owner always gets in; a wrong one counts in the run like a wrong authenticator code.
 */
export const TWO_FACTOR_LIMITS = {
  accountFromAddress: { name: "two-factor:account-address", max: 10, windowMs: 15 * MINUTE },
} satisfies Record<string, RateLimit>;

/** Counts one code attempt at `account` from `address`; false when the address has used up its attempts. */
const allowCodeAttempt = (account: Account, address: string, now: number) =>
  consumeRateLimit(TWO_FACTOR_LIMITS.accountFromAddress, `${account.id}\n${address}`, new Date(now));

const failureSlot = (userId: string, run: string, n: number) => `${userId}:${run}:${n}`;

/**
 * The account's current run of wrong codes: how many, and when the last came. Found by _id lookups only (a
 * binary search over the numbered slots, taken from 1 up), never by counting the collection.
 */
export async function failureRun(userId: string, run: string) {
  let low = 1;
  let high = CODE_FAILURE_LIMIT + 1;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (await TwoFactorFailure.exists({ _id: failureSlot(userId, run, middle) })) low = middle + 1;
    else high = middle;
  }
  const failures = low - 1;
  const last = failures ? await TwoFactorFailure.findById(failureSlot(userId, run, failures), { at: 1 }).lean() : null;
  return { failures, lastAt: last?.at.getTime() ?? 0 };
}

/**
 * Records one wrong code in the account's run: the next free slot (an insert under its unique _id, so racing
 * guesses each count). The one that takes slot WARN_OWNER_AFTER_FAILURES e-mails the owner, once per run.
 */
async function recordFailure(account: Account, run: string, from: number, address: string, now: number) {
  for (let n = from + 1; n <= CODE_FAILURE_LIMIT; n++) {
    try {
      await TwoFactorFailure.create({ _id: failureSlot(account.id, run, n), user_id: account.id, at: new Date(now) });
    } catch (error) {
      if (isDuplicateKeyError(error)) continue;
      throw error;
    }
    if (n === CODE_FAILURE_LIMIT) log("warn", "two_factor.codes_locked", { user_id: account.id });
    if (n === WARN_OWNER_AFTER_FAILURES) {
      log("warn", "two_factor.owner_warned", { user_id: account.id });
      await queueMail({
        key: `two-factor-warning:${failureSlot(account.id, run, n)}`,
        to: account.email,
        about: { userId: account.id },
        ...codesBeingTried({ failures: n, at: new Date(now), address, resetUrl: absoluteUrl("/auth/forgot-password") }),
      });
    }
    return;
  }
}

/**
 * A code that worked: the run of wrong codes ends (the next one starts a new run) and its slots go, so the
 * collection holds only runs still going. Every slot of the run, not only those counted: a wrong code racing
 * this one may still take the next. By _id (pushed down); the list is small and the collection with it.
 */
async function endFailureRun(userId: string, run: string) {
  await TwoFactor.updateOne({ _id: userId }, { $set: { failure_run: randomUUID() } });
  const slots = Array.from({ length: CODE_FAILURE_LIMIT }, (_, i) => failureSlot(userId, run, i + 1));
  await TwoFactorFailure.deleteMany({ _id: mongoose.trusted({ $in: slots }) });
}

type Account = { id: string; email: string };
/** A refused code: why (the spec's words) and the answer's status (429: attempts used up; 410: enrolment gone). */
export type CodeRefusal = { ok: false; message: string; status: 400 | 410 | 429 };
const refuse = (message: string, status: CodeRefusal["status"] = 400): CodeRefusal => ({ ok: false, message, status });
export type CodeCheck = { ok: true; via: "app" | "recovery"; recoveryCodesLeft: number } | CodeRefusal;

const hashRecoveryCode = (userId: string, code: string) =>
  createHash("sha256").update(`${userId}:${code}`).digest("hex");

const RECOVERY_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const newRecoveryCode = () => Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(32)]).join("");

/** Starts (or restarts) enrolment: a new key, sealed, waiting for its first code. */
export async function startEnrolment(userId: string, now = new Date()) {
  await TwoFactor.updateOne(
    { _id: userId },
    { $set: { pending_secret: seal(newTotpSecret(), PURPOSE), pending_at: now } },
    { upsert: true },
  );
}

/** What the enrolment page shows: the key as text and as a QR code (SVG, drawn here); null when none is pending. */
export async function enrolmentView(account: Account, now = Date.now()) {
  const doc = await TwoFactor.findById(account.id).lean();
  if (!doc?.pending_secret || !doc.pending_at || doc.pending_at.getTime() + ENROLMENT_VALID_MS <= now) return null;
  const secret = open(doc.pending_secret, PURPOSE);
  const uri = totpUri(secret, account.email);
  const qrSvg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { secret, uri, qrSvg };
}

/**
 * Confirms enrolment with the first code: turns two-factor on and returns the
 * ten recovery codes (shown once, stored as hashes). Exactly once per started
 * enrolment, however many confirmations race.
 */
export async function confirmEnrolment(
  account: Account,
  code: string,
  address: string,
  now = Date.now(),
): Promise<{ ok: true; recoveryCodes: string[] } | CodeRefusal> {
  const doc = await TwoFactor.findById(account.id).lean();
  if (!doc?.pending_secret || !doc.pending_at || doc.pending_at.getTime() + ENROLMENT_VALID_MS <= now)
    return refuse(TWO_FACTOR_MESSAGES.enrolExpired, 410);
  if (!(await allowCodeAttempt(account, address, now))) return refuse(TWO_FACTOR_MESSAGES.tooMany, 429);
  const secret = open(doc.pending_secret, PURPOSE);
  const step = matchTotp(secret, code, now);
  if (step === null) return refuse(TWO_FACTOR_MESSAGES.enrolInvalid);
  if (!(await claimOnce(`two-factor-enrol:${account.id}:${doc.pending_at.getTime()}`)))
    return refuse(TWO_FACTOR_MESSAGES.enrolExpired, 410);
  await claimOnce(`totp:${account.id}:${step}`);
  const recoveryCodes = await enableSecondFactor(account.id, secret, {
    lastStep: step,
    now: new Date(now),
  });
  log("info", "two_factor.enabled", { user_id: account.id });
  return { ok: true, recoveryCodes };
}

/**
 * Checks a code typed at sign-in or as fresh proof: an authenticator code for
 * now or one step either side, never for a step already used (RFC 6238 5.2), or
 * an unused recovery code (then spent). Authenticator codes and wrong recovery
 * codes count against the address's limit (TWO_FACTOR_LIMITS); a recovery code
 * is checked past it. After the password alone, a wrong code also counts in
 * the account's run of wrong codes, and an authenticator code waits as that run
 * says (or is refused after CODE_FAILURE_LIMIT); a recovery code is checked
 * whatever the run. From a `trusted` session (one that passed the second factor
 * already) the run neither blocks nor counts: it is the owner.
 */
export async function checkSecondFactor(
  account: Account,
  rawCode: string,
  address: string,
  { now = Date.now(), trusted = false }: { now?: number; trusted?: boolean } = {},
): Promise<CodeCheck> {
  const doc = await TwoFactor.findById(account.id).lean();
  if (!doc?.secret) return refuse(TWO_FACTOR_MESSAGES.codeInvalid);
  const code = rawCode.replace(/[\s-]/g, "").toLowerCase();
  const left = (used: number) => doc.recovery_codes.filter((c) => !c.used_at).length - used;
  const run = trusted ? null : { id: doc.failure_run, ...(await failureRun(account.id, doc.failure_run)) };
  const wrong = async (message: string) => {
    if (run) await recordFailure(account, run.id, run.failures, address, now);
    return refuse(message);
  };

  if (isRecoveryCode(code)) {
    const hash = hashRecoveryCode(account.id, code);
    const entry = doc.recovery_codes.find((c) => c.hash === hash && !c.used_at);
    // The once-key makes "used once" hold when two requests race with the same code.
    if (!entry || !(await claimOnce(`recovery-code:${account.id}:${hash}`))) {
      await allowCodeAttempt(account, address, now);
      return wrong(TWO_FACTOR_MESSAGES.codeInvalid);
    }
    // The whole list is written back (FerretDB has no positional update); the once-key above is what
    // refuses a second use, the mark is for counting what is left.
    const codes = doc.recovery_codes.map((c) => (c.hash === hash ? { hash: c.hash, used_at: new Date(now) } : c));
    await TwoFactor.updateOne({ _id: account.id }, { $set: { recovery_codes: codes } });
    if (run?.failures) await endFailureRun(account.id, run.id);
    log("info", "two_factor.recovery_code_used", { user_id: account.id, left: left(1) });
    return { ok: true, via: "recovery", recoveryCodesLeft: left(1) };
  }

  if (run) {
    const allowedAt = nextCodeAllowedAt(run.failures, run.lastAt);
    if (allowedAt === null) return refuse(TWO_FACTOR_MESSAGES.codesLocked, 429);
    if (allowedAt > now) return refuse(TWO_FACTOR_MESSAGES.codeWait(allowedAt - now), 429);
  }
  if (!(await allowCodeAttempt(account, address, now))) return refuse(TWO_FACTOR_MESSAGES.tooMany, 429);
  if (!isAppCode(code)) return wrong(TWO_FACTOR_MESSAGES.codeInvalid);
  const secret = open(doc.secret, PURPOSE);
  const step = matchTotp(secret, code, now);
  if (step === null) {
    log("info", "two_factor.code_refused", { user_id: account.id });
    return wrong(TWO_FACTOR_MESSAGES.codeInvalid);
  }
  if (step <= doc.last_step || !(await claimOnce(`totp:${account.id}:${step}`)))
    return refuse(TWO_FACTOR_MESSAGES.codeUsed);
  await TwoFactor.updateOne(
    { _id: account.id, last_step: mongoose.trusted({ $lt: step }) },
    { $set: { last_step: step, ...(isSealedUnderNewest(doc.secret) ? {} : { secret: seal(secret, PURPOSE) }) } },
  );
  if (run?.failures) await endFailureRun(account.id, run.id);
  return { ok: true, via: "app", recoveryCodesLeft: left(0) };
}

/**
 * Turns two-factor on with this key (sealed here) and ten new recovery codes,
 * which it returns (the only time they exist unhashed). Enrolment calls it once
 * its first code matched; the test helper calls it to give a test admin a key.
 */
export async function enableSecondFactor(
  userId: string,
  secretBase32: string,
  { lastStep = 0, now = new Date() }: { lastStep?: number; now?: Date } = {},
): Promise<string[]> {
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await TwoFactor.updateOne(
    { _id: userId },
    {
      $set: {
        secret: seal(secretBase32, PURPOSE),
        enabled_at: now,
        pending_secret: null,
        pending_at: null,
        last_step: lastStep,
        failure_run: randomUUID(),
        recovery_codes: recoveryCodes.map((c) => ({ hash: hashRecoveryCode(userId, c), used_at: null })),
      },
    },
    { upsert: true },
  );
  await User.updateOne({ _id: userId }, { $set: { two_factor_enabled_at: now } });
  return recoveryCodes;
}

/** Turns two-factor off for an account (key and recovery codes deleted). The caller ends its sessions. */
export async function removeSecondFactor(userId: string) {
  await TwoFactor.deleteOne({ _id: userId });
  await User.updateOne({ _id: userId }, { $set: { two_factor_enabled_at: null } });
  log("info", "two_factor.removed", { user_id: userId });
}

/** Re-seals every stored key under the newest TWO_FACTOR_SECRET (after adding a new one). */
export async function resealAll(): Promise<number> {
  let count = 0;
  for await (const doc of TwoFactor.find({}, { secret: 1, pending_secret: 1 }).lean().cursor()) {
    const set: Record<string, string> = {};
    if (doc.secret && !isSealedUnderNewest(doc.secret)) set.secret = seal(open(doc.secret, PURPOSE), PURPOSE);
    if (doc.pending_secret && !isSealedUnderNewest(doc.pending_secret))
      set.pending_secret = seal(open(doc.pending_secret, PURPOSE), PURPOSE);
    if (Object.keys(set).length) {
      await TwoFactor.updateOne({ _id: doc._id }, { $set: set });
      count++;
    }
  }
  return count;
}
