import mongoose from "mongoose";

/**
 * A claimed idempotency key. Inserting one is how an effect without a natural
 * record of its own (the Nth renewal of a token, say) happens exactly once.
 */
const OnceKeySchema = new mongoose.Schema(
  { _id: { type: String, required: true } },
  { collection: "once_keys", timestamps: { createdAt: "created_at", updatedAt: false } as const },
);

export const OnceKey = mongoose.model("OnceKey", OnceKeySchema);
