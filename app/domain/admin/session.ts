import { formatTime, MINUTE_MS } from "~/domain/dates";
import { FORM_KEY_FIELD } from "~/domain/form-key";

/**
 * The admin's idle limit, told and kept (WCAG 2.2.1): a warning before the session ends with a
 * way to extend it, and a post refused for want of a session kept for the admin who signs in again.
 */

/** The warning shows this long before the admin session's idle end. */
export const SESSION_WARNING_MS = 2 * MINUTE_MS;

/** A refused post is kept this long, for the admin who signs in next from that browser. */
export const KEPT_POST_MS = 60 * MINUTE_MS;
/** At most this much text (names and values, UTF-8) is kept; a larger refused post is kept not at all. */
export const KEPT_POST_MAX_BYTES = 64 * 1024;

/** The "Stay signed in" button's intent (routes/admin.session.ts). */
export const STAY_SIGNED_IN = "stay-signed-in";

export const ADMIN_SESSION_MESSAGES = {
  /** The admin chrome's plain sentence (also what a page without JavaScript says). */
  endsAt: (at: number) => `If left idle, your admin session ends at ${formatTime(at)} (Sydney time).`,
  warningTitle: "Still there?",
  warning: "Your session ends in 2 minutes. Stay signed in?",
  ended: "Your session has ended. Sign in again to continue; what you type now will be offered back after you do.",
  stay: "Stay signed in",
  unknownIntent: "Please use the Stay signed in button: that request wasn't it.",
  keptUntilSignIn:
    "What you sent is kept for an hour: after you sign in again, the page shows it for you to check and save.",
  kept: "Your change was not saved because you were signed out. Check it and save again.",
  tooLarge:
    "You were signed out, and this form is too large to keep until you sign in again (at most 64 KB of text). Sign in and make the change again.",
} as const;

/**
 * Fields never kept: passwords, tokens, secrets, one-time and recovery codes, and the form key (the page makes a
 * new one). No admin page posts a sign-in code (those go to /auth/two-factor), so a field named `code` is what
 * the admin typed, a coupon's code, and is kept.
 */
const SECRET_FIELD = /password|token|secret|recovery|otp|two.?factor/i;

export type KeptFields = { intent: string | null; values: Record<string, string> };

/**
 * What of a refused post is kept: its text fields but the secret ones and the files; null when there is nothing
 * to keep, "too-large" past KEPT_POST_MAX_BYTES. A repeated name keeps its first value (the admin forms' fields
 * are single).
 */
export function keptFields(entries: Iterable<[string, unknown]>): KeptFields | null | "too-large" {
  const values: Record<string, string> = {};
  let intent: string | null = null;
  let bytes = 0;
  for (const [name, value] of entries) {
    if (typeof value !== "string" || name === FORM_KEY_FIELD || SECRET_FIELD.test(name)) continue;
    bytes += new TextEncoder().encode(name).byteLength + new TextEncoder().encode(value).byteLength;
    if (bytes > KEPT_POST_MAX_BYTES) return "too-large";
    if (name === "intent") intent ??= value;
    else if (!Object.hasOwn(values, name)) values[name] = value;
  }
  return Object.keys(values).length ? { intent, values } : null;
}
