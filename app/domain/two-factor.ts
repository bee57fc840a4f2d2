/**
 * Two-factor sign-in: its limits, its words and its forms. Every admin has it
 * (issue 24); a customer may turn it on from the dashboard. The codes themselves
 * are in totp.ts; the records and checks in server/two-factor.server.ts.
 */

/** A destructive admin action needs a code entered within this long. */
export const FRESH_PROOF_MS = 10 * 60_000;
/** Recovery codes made at enrolment, each good once. */
export const RECOVERY_CODE_COUNT = 10;
/** A started enrolment (key shown, not yet confirmed) lasts this long. */
export const ENROLMENT_VALID_MS = 60 * 60_000;

export const TWO_FACTOR_MESSAGES = {
  codeRequired: "Please enter the 6-digit code from your authenticator app, or a recovery code",
  codeInvalid: "That code didn't work. Check your authenticator app's clock and try the newest code.",
  codeUsed: "That code was already used. Wait for the next one.",
  tooMany: "Too many attempts. Please wait 15 minutes, or use one of your recovery codes.",
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
