import mongoose from "mongoose";

/**
 * One account's two-factor sign-in (two_factors), found by `_id` = the user's id.
 * `secret` and `pending_secret` are authenticator-app keys sealed with
 * TWO_FACTOR_SECRET (secret-box.server.ts), never stored in the clear;
 * recovery codes are stored only as SHA-256 hashes. `last_step` is the newest
 * time step a code was accepted for: a code for that step or an older one is
 * refused (no replay). Whether the account has it on is mirrored on the user
 * (`two_factor_enabled_at`), which every request reads anyway. `failure_run`
 * names the current run of wrong codes (two-factor-failure.server.ts).
 */
const TwoFactorSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    secret: { type: String, default: null },
    enabled_at: { type: Date, default: null },
    pending_secret: { type: String, default: null },
    pending_at: { type: Date, default: null },
    last_step: { type: Number, default: 0 },
    // The current run of wrong codes (two-factor-failure.server.ts): a code that works starts a new one.
    failure_run: { type: String, default: "" },
    recovery_codes: { type: [{ _id: false, hash: String, used_at: { type: Date, default: null } }], default: [] },
  },
  { collection: "two_factors", timestamps: { createdAt: "created_at", updatedAt: "updated_at" } as const },
);

export const TwoFactor = mongoose.model("TwoFactor", TwoFactorSchema);
