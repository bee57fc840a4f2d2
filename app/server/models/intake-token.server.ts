import mongoose from "mongoose";
import { TOKEN_PURPOSES } from "~/domain/tokens";
import { slotList } from "./slots.server";

/**
 * An e-mailed link's access token (intake_tokens), for one purpose: the intake
 * form or the order-status page. Its `_id` is the SHA-256 of the token, so every
 * request finds it by `_id` (ARCHITECTURE rule 7) and a copy of the database
 * cannot open anybody's form. The newest token per order and purpose is the one
 * in use. `issue_key` names the event that issued it (a payment, a reminder), so
 * each event issues at most one token per purpose however often it runs.
 */
const IntakeTokenSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true }, // sha256(token), hex
    order_id: { type: String, required: true },
    purpose: { type: String, enum: TOKEN_PURPOSES, required: true },
    issue_key: { type: String, required: true },
    expires_at: { type: Date, required: true },
    used: { type: Boolean, default: false },
    used_at: { type: Date, default: null },
    last_accessed: { type: Date, default: null },
    auto_renewed_count: { type: Number, default: 0, min: 0 },
    // How often an admin reopened the link after a submission: each opening submits once (server/intake/draft.server.ts).
    reopened: { type: Number, default: 0, min: 0 },
  },
  { collection: "intake_tokens", timestamps: { createdAt: "created_at", updatedAt: false } as const },
);

// MongoDB's path to an order's newest token of a purpose (FerretDB's is order_tokens, below).
IntakeTokenSchema.index({ order_id: 1, purpose: 1, created_at: -1 });
IntakeTokenSchema.index({ issue_key: 1, purpose: 1 }, { unique: true });

/**
 * An order's tokens of one purpose, found by `_id` (slots.server.ts): the owner is
 * `<order id>:<purpose>`, each member a token's `_id`, added before the token is stored, so the order-status
 * page and the admin's card find the newest token without scanning every order's tokens. A member whose
 * insert lost (an event issued twice) names no token, and the reader skips it.
 */
export const orderTokens = slotList("OrderToken", "order_tokens");
export const tokenList = (orderId: string, purpose: string) => `${orderId}:${purpose}`;

type NewToken = { _id?: unknown; order_id?: unknown; purpose?: unknown };
const listToken = (doc: NewToken) =>
  orderTokens.add(tokenList(String(doc.order_id), String(doc.purpose)), String(doc._id));
IntakeTokenSchema.pre("save", async function () {
  if (this.isNew) await listToken(this);
});
IntakeTokenSchema.pre("insertMany", async function (docs: unknown) {
  await Promise.all(([] as NewToken[]).concat(docs as NewToken[]).map(listToken));
});

export const IntakeToken = mongoose.model("IntakeToken", IntakeTokenSchema);
