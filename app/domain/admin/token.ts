/** The admin's view of an intake token (spec 2 section 4). */
export const EXPIRING_SOON_DAYS = 3;
const DAY_MS = 86_400_000;

export type AdminTokenState = "No Token" | "Expired" | "Expiring Soon" | "Valid";

/** No token; Expired past its expiry; Expiring Soon with 3 or fewer rounded-up days left; otherwise Valid. */
export function adminTokenState(expiresAt: Date | null, now: Date): AdminTokenState {
  if (!expiresAt) return "No Token";
  const left = expiresAt.getTime() - now.getTime();
  if (left <= 0) return "Expired";
  return Math.ceil(left / DAY_MS) <= EXPIRING_SOON_DAYS ? "Expiring Soon" : "Valid";
}

export const TOKEN_BANNERS: Partial<Record<AdminTokenState, string>> = {
  Expired: "Token Expired: Renew the token to give the customer access again.",
  "Expiring Soon": "Expiring Soon: Consider renewing the token or sending a reminder.",
};
