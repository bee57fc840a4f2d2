import mongoose from "mongoose";

/**
 * One wrong second-factor code at one account. A run of wrong codes in a row is a series of
 * numbered slots, `{user}:{run}:{n}`, each an insert under its unique _id (ARCHITECTURE.md rule 7), so racing
 * guesses each take their own number and the count is never overshot nor lost. `run` is the account's
 * `failure_run` (two_factors), which a code that works replaces: that, never the clock, starts the count again.
 */
const TwoFactorFailureSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    user_id: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: "two_factor_failures" },
);

TwoFactorFailureSchema.index({ user_id: 1 });

export const TwoFactorFailure = mongoose.model("TwoFactorFailure", TwoFactorFailureSchema);
