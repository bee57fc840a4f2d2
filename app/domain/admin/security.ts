/** The admin security pages' words: an admin's signed-in sessions (how a device is named), and another admin's reset. */

export const SESSION_MESSAGES = {
  alreadyEnded: "That session has already ended",
  ended: (device: string) => ({ title: "Session Ended", description: `${device} is signed out.` }),
} as const;

/** Resetting another admin's second factor (/admin/security/reset/$userId). */
export const RESET_MESSAGES = {
  notFound: "No other admin has that id",
  done: (email: string) => ({
    title: "Second Factor Reset",
    description: `${email} is signed out everywhere and sets up two-factor sign-in again at the next sign-in.`,
  }),
} as const;

/** A person's words for a User-Agent: "Firefox on Windows", never the raw string as the headline. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return "Unknown browser";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : "A browser";
  const system = /iPhone|iPad/.test(userAgent)
    ? "iOS"
    : /Android/.test(userAgent)
      ? "Android"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : "an unknown system";
  return `${browser} on ${system}`;
}
