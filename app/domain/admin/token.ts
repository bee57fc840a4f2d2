import type { AdminTokenState } from "../tokens";

export const TOKEN_BANNERS: Partial<Record<AdminTokenState, string>> = {
  Expired: "Token Expired: Renew the token to give the customer access again.",
  "Expiring Soon": "Expiring Soon: Consider renewing the token or sending a reminder.",
};
