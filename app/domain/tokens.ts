import { DAY_MS, HOUR_MS } from "./dates";
import { countOf } from "./words";

/**
 * Access tokens in e-mailed links (spec 1 "Intake token", spec 2 "Intake token"):
 * their purposes, lifetimes and states. Pure; the server module
 * `server/tokens.server.ts` issues, stores and checks them.
 */

/**
 * What a token opens. Each purpose has its own tokens and its own cookie, so the
 * intake link never opens the order-status page and the other way round.
 */
export const TOKEN_PURPOSES = ["intake", "status"] as const;
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];

/** Days a new link works: 7 for the intake form (stated after payment), longer for order status. */
export const TOKEN_VALID_DAYS: Record<TokenPurpose, number> = { intake: 7, status: 90 };
/** A renewal extends a link by 30 days from now. */
export const RENEWAL_DAYS = 30;
/** A link with this many days or fewer left is "expiring soon" (spec 2) and may be renewed early. */
export const EXPIRING_SOON_DAYS = 3;
/** How many times a customer may renew their own link; after that, support renews it. */
export const MAX_SELF_RENEWALS = 3;

export type TokenFacts = { expires_at: Date; used: boolean };
export type TokenStateName = "valid" | "expired" | "used";

/** Whole days a link has left, rounded up (a link with 2 hours left has 1 day): its state's measure (spec 2 section 4). */
const daysLeft = (expiresAt: Date, now: Date) => Math.ceil((expiresAt.getTime() - now.getTime()) / DAY_MS);

/**
 * A link's time left as people read it, beside its exact expiry, never more than it has (never
 * "3 days left" with 2 days 1 hour to go): whole days ("2 days"), under a day its hours ("5 hours"), under
 * an hour "less than an hour"; null once expired. The customer's page and the admin's say it the same way.
 */
export function linkTimeLeft(expiresAt: Date, now: Date): string | null {
  const ms = expiresAt.getTime() - now.getTime();
  if (ms <= 0) return null;
  if (ms >= DAY_MS) return countOf(Math.floor(ms / DAY_MS), "day");
  if (ms >= HOUR_MS) return countOf(Math.floor(ms / HOUR_MS), "hour");
  return "less than an hour";
}

export type LinkPhase = "valid" | "expiring" | "expired";

/**
 * The one rule for a link's time, which the customer's and the admin's views name
 * in their own words: expired from the moment of its expiry, expiring soon with
 * EXPIRING_SOON_DAYS or fewer (rounded-up) days left, valid otherwise.
 */
export function linkPhase(expiresAt: Date, now: Date): LinkPhase {
  const days = daysLeft(expiresAt, now);
  if (days <= 0) return "expired";
  return days <= EXPIRING_SOON_DAYS ? "expiring" : "valid";
}

/** Used (the intake was submitted) wins over expired; a token is expired from the moment of its expiry. */
export function tokenState(token: TokenFacts, now = new Date()): TokenStateName {
  if (token.used) return "used";
  return linkPhase(token.expires_at, now) === "expired" ? "expired" : "valid";
}

/*
 * A link's state in the words of each who sees it, all from linkPhase: the server's gate
 * (tokenState), the customer's order status (accessState) and the admin's order page
 * (adminTokenState).
 */
export type AccessState = "active" | "expiring" | "expired" | "submitted" | "none";
export const ACCESS_LABELS: Record<AccessState, string> = {
  active: "Active",
  expiring: "Expiring Soon",
  expired: "Expired",
  submitted: "Submitted",
  none: "No link",
};

const ACCESS_STATES: Record<LinkPhase, AccessState> = { valid: "active", expiring: "expiring", expired: "expired" };

/** The customer's view of their intake link: none, submitted once used, else its phase. */
export function accessState(token: { expires_at: Date; used: boolean } | null, now = new Date()): AccessState {
  if (!token) return "none";
  if (token.used) return "submitted";
  return ACCESS_STATES[linkPhase(token.expires_at, now)];
}

/** The admin's view of an intake token (spec 2 section 4). */
export type AdminTokenState = "No Token" | "Expired" | "Expiring Soon" | "Valid";

const ADMIN_TOKEN_STATES: Record<LinkPhase, AdminTokenState> = {
  valid: "Valid",
  expiring: "Expiring Soon",
  expired: "Expired",
};

/** No token, or the link's phase in the admin's words. */
export function adminTokenState(expiresAt: Date | null, now: Date): AdminTokenState {
  return expiresAt ? ADMIN_TOKEN_STATES[linkPhase(expiresAt, now)] : "No Token";
}

/** The shape of every token we issue (256 bits, base64url); anything else is refused before a lookup. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const addDays = (from: Date, days: number) => new Date(from.getTime() + days * DAY_MS);

/** `/order-status?link=unknown`: where an order-status link that matches no order lands ('Order Not Found'). */
export const UNKNOWN_LINK = "unknown";

export const TOKEN_MESSAGES = {
  statusTokenRequired: {
    title: "Access Token Required",
    description: "Please use the link from your order confirmation email.",
  },
} as const;
