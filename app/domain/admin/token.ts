import { linkPhase, type LinkPhase } from "../tokens";

/** The admin's view of an intake token (spec 2 section 4). */

export type AdminTokenState = "No Token" | "Expired" | "Expiring Soon" | "Valid";

const ADMIN_TOKEN_STATES: Record<LinkPhase, AdminTokenState> = {
  valid: "Valid",
  expiring: "Expiring Soon",
  expired: "Expired",
};

/** No token, or the link's phase (domain/tokens.ts linkPhase) in the admin's words. */
export function adminTokenState(expiresAt: Date | null, now: Date): AdminTokenState {
  return expiresAt ? ADMIN_TOKEN_STATES[linkPhase(expiresAt, now)] : "No Token";
}

export const TOKEN_BANNERS: Partial<Record<AdminTokenState, string>> = {
  Expired: "Token Expired: Renew the token to give the customer access again.",
  "Expiring Soon": "Expiring Soon: Consider renewing the token or sending a reminder.",
};
