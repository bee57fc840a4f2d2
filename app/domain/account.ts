/** Accounts: the sign-in page's forms, their messages (spec 1 sections 5 and 8) and the redirect rule. */

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 200;

export const AUTH_MESSAGES = {
  missing: "Missing Information: Please provide email and password",
  // Each empty field's own message, under the field; the form's one alert says `missing`.
  emailMissing: "Enter your email address",
  passwordMissing: "Enter a password",
  weak: `Weak Password: Password must be at least ${PASSWORD_MIN} characters`,
  tooLong: `Password must be less than ${PASSWORD_MAX} characters`,
  invalid: "Invalid email or password",
  created: {
    title: "Account Created",
    description: "We've e-mailed you a link to confirm your address. Open it to finish signing up.",
  },
  welcome: { title: "Welcome Back" },
  signedOut: {
    title: "Signed Out",
    description:
      "You have been signed out, and what this site kept on this device (copies of forms not yet sent) was removed.",
  },
  tooMany: "Too many attempts. Please wait 15 minutes and try again, or reset your password.",
  resetSent: {
    title: "Check your e-mail",
    description:
      "If an account uses that address, we've sent it a link to choose a new password. The link works for 1 hour.",
  },
  resetInvalid: "This link has expired or was already used. Please ask for a new one.",
  /** A resend of a reset whose answer was lost, carrying another password than the one set. */
  resetAlreadyDone:
    "Your password was already changed with this link, to the password you sent first. Sign in with it, or ask for a new link.",
  resetDone: { title: "Password Changed", description: "Your new password is set and you are signed in." },
  verifyInvalid: "This confirmation link has expired or was already used. Sign in and ask for a new one.",
  verified: {
    title: "E-mail Confirmed",
    description: "Thanks: your address is confirmed and orders you bought with it are now in your dashboard.",
  },
  resendLimit: "We've sent several links today. Please use the newest one in your inbox, or try again tomorrow.",
  verifySent: { title: "Check your e-mail", description: "We've sent you a new link to confirm your address." },
  signInToSubscribe: { title: "Please sign in to subscribe" },
  signIn: { title: "Please sign in" },
} as const;

export const AUTH_INTENTS = { signIn: "sign-in", signUp: "sign-up" } as const;
/** /auth/verify: confirm with the e-mailed link, or (signed in) ask for a new link. */
export const VERIFY_INTENTS = { confirm: "confirm", resend: "resend" } as const;

/**
 * A plain path on this site: one leading slash, then only the printable ASCII a Location header can carry (no
 * space, no backslash, which browsers read as a slash). Anything else (another host, a control character, a
 * raw non-ASCII character that would make the redirect itself fail) is not a place we send anyone.
 */
const PLAIN_PATH = /^\/(?!\/)[\x21-\x5b\x5d-\x7e]*$/;

/**
 * The longest place a sign-in comes back to. Any page's own address fits; a longer one (a query made to be long)
 * would make every link that carries it, and the redirect's Location header, three times its size.
 */
export const REDIRECT_MAX_LENGTH = 1000;

/** `to` when it is a plain path on this site, otherwise the fallback (an open redirect is a phishing tool). */
export function safeRedirect(to: string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || to.length > REDIRECT_MAX_LENGTH || !PLAIN_PATH.test(to)) return fallback;
  const base = "http://this-site.invalid";
  try {
    return new URL(to, base).origin === base ? to : fallback;
  } catch {
    return fallback;
  }
}

/**
 * The form's one alert: the spec's 'Missing Information' when the e-mail or password is empty (each field
 * says its own message once, beneath it), otherwise the first error.
 */
export function authAlert(errors: { form?: string[]; email?: string[]; password?: string[]; fullName?: string[] }) {
  const empty = [AUTH_MESSAGES.emailMissing, AUTH_MESSAGES.passwordMissing] as string[];
  if ([...(errors.email ?? []), ...(errors.password ?? [])].some((m) => empty.includes(m)))
    return AUTH_MESSAGES.missing;
  return errors.form?.[0] ?? errors.email?.[0] ?? errors.password?.[0] ?? errors.fullName?.[0];
}

export type AuthTab = "signin" | "signup";
export const authTab = (value: string | null): AuthTab => (value === "signup" ? "signup" : "signin");
