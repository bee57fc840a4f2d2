/**
 * Two-factor sign-in: its limits, its words and its forms. Every admin has it;
 * a customer may turn it on from the dashboard. The codes themselves
 * are in totp.ts; the records and checks in server/two-factor.server.ts.
 */

/** A destructive admin action needs a code entered within this long. */
export const FRESH_PROOF_MS = 10 * 60_000;
/** Recovery codes made at enrolment, each good once. */
export const RECOVERY_CODE_COUNT = 10;
/** A started enrolment (key shown, not yet confirmed) lasts this long. */
export const ENROLMENT_VALID_MS = 60 * 60_000;

/**
 * The guessing budget for someone who has the password (NIST SP 800-63B 5.2.2): wrong codes in a
 * row at one account, from every address together, never reset by the clock, only by a code that works. The first
 * few wait for nothing; from then on each next authenticator code waits twice as long as the last (up to a cap),
 * and after CODE_FAILURE_LIMIT in a row authenticator codes are off until the owner signs in with a recovery code
 * (or proves a code from a session that already passed the second factor). Wrong recovery codes count too.
 */
export const CODE_FAILURE_LIMIT = 100;
export const FREE_CODE_FAILURES = 5;
export const FIRST_CODE_DELAY_MS = 15_000;
export const MAX_CODE_DELAY_MS = 10 * 60_000;
/** The owner is e-mailed when this many wrong codes in a row are reached: once per run of failures. */
export const WARN_OWNER_AFTER_FAILURES = 10;

/** How long the next authenticator code waits after `failures` wrong codes in a row. */
export function codeDelayMs(failures: number): number {
  if (failures < FREE_CODE_FAILURES) return 0;
  return Math.min(MAX_CODE_DELAY_MS, FIRST_CODE_DELAY_MS * 2 ** (failures - FREE_CODE_FAILURES));
}

/** When the next authenticator code may be tried after `failures` in a row, the last at `lastAt`; null: not at all. */
export function nextCodeAllowedAt(failures: number, lastAt: number): number | null {
  if (failures >= CODE_FAILURE_LIMIT) return null;
  return lastAt + codeDelayMs(failures);
}

/** How many wrong authenticator codes a guesser gets through in `spanMs` from a clean start, as fast as allowed. */
export function codesAllowedWithin(spanMs: number): number {
  let tried = 0;
  let at = 0;
  for (;;) {
    const next = tried === 0 ? 0 : nextCodeAllowedAt(tried, at);
    if (next === null || next > spanMs) return tried;
    at = next;
    tried++;
  }
}

/** "45 seconds", "3 minutes": a wait, rounded up. */
export function formatWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 90) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

export const TWO_FACTOR_MESSAGES = {
  codeRequired: "Please enter the 6-digit code from your authenticator app, or a recovery code",
  codeInvalid: "That code didn't work. Check your authenticator app's clock and try the newest code.",
  codeUsed: "That code was already used. Wait for the next one.",
  tooMany: "Too many attempts. Please wait 15 minutes, or use one of your recovery codes.",
  codeWait: (ms: number) =>
    `Too many wrong codes in a row. Please wait ${formatWait(ms)} before the next code, or use one of your recovery codes.`,
  codesLocked:
    "Too many wrong codes in a row: authenticator codes are turned off for this account until you sign in with one of your recovery codes.",
  enrolInvalid: "That code didn't match. Scan the key again and enter the code your app shows now.",
  enrolExpired: "This setup has expired. Please start again.",
  signInAgain: { title: "Please sign in", description: "Sign in again to continue." },
  setupRequired: {
    title: "Set up two-factor sign-in",
    description: "Admin accounts need an authenticator app as well as the password.",
  },
  enabled: {
    title: "Two-factor sign-in is on",
    description: "From now on you'll enter a code from your authenticator app after your password.",
  },
  disabled: { title: "Two-factor sign-in is off", description: "Your password alone now signs you in." },
  freshProof: {
    title: "Confirm it's you",
    description: "Enter a code from your authenticator app to continue with this action.",
  },
  confirmed: { title: "Confirmed", description: "Please confirm the action again." },
  recoveryCodeUsed: (left: number) => ({
    title: "Recovery code used",
    description: `You have ${left} recovery code${left === 1 ? "" : "s"} left.`,
  }),
  unknownIntent: "Please use the buttons on this page: that request wasn't one of them.",
  adminAlwaysOn: "Admin accounts always need two-factor sign-in.",
  lastRecoveryCode: {
    title: "That was your last recovery code",
    description: "Turn two-factor sign-in off and on again from your dashboard to get new ones.",
  },
} as const;

export const TWO_FACTOR_INTENTS = { verify: "verify", start: "start", confirm: "confirm", disable: "disable" } as const;

/** A code of only digits is an authenticator code; 10 letters/digits is a recovery code. */
export const isAppCode = (normalized: string) => /^\d{6}$/.test(normalized);
export const isRecoveryCode = (normalized: string) => /^[a-z2-7]{10}$/.test(normalized);

/** A recovery code as shown: two groups of five, "abcde-fghij". */
export const formatRecoveryCode = (normalized: string) => `${normalized.slice(0, 5)}-${normalized.slice(5)}`;

/** Whether the last proof is recent enough for a destructive action. */
export const isFresh = (verifiedAt: number | null | undefined, now: number) =>
  typeof verifiedAt === "number" && now - verifiedAt >= 0 && now - verifiedAt <= FRESH_PROOF_MS;
