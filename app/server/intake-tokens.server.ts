import { createHash, createHmac } from "node:crypto";
import { connectDb, isDuplicateKeyError } from "./db.server";
import { getEnv } from "./env.server";
import { IntakeToken } from "./models/index.server";

export const TOKEN_VALID_DAYS = 7;
const DAY_MS = 86_400_000;

/** SHA-256 of the token: what the database stores and looks up. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * The token for an issuing event (a payment, a renewal): HMAC-SHA256 of the
 * event's key under the server secret, 256 bits nobody can guess. Because it is
 * derived, a retried request recomputes the same link and can send the same
 * (idempotent) e-mail, while the database keeps only the hash.
 */
export function deriveToken(issueKey: string): string {
  return createHmac("sha256", getEnv().SESSION_SECRET).update(`intake-token:${issueKey}`).digest("base64url");
}

/**
 * Issues the access token for the event named by issueKey, once: running it
 * again (a retry, a race) stores nothing new and returns the same token.
 */
export async function issueIntakeToken(input: { orderId: string; issueKey: string; days?: number; now?: Date }) {
  await connectDb();
  const token = deriveToken(input.issueKey);
  const now = input.now ?? new Date();
  try {
    await IntakeToken.create({
      order_id: input.orderId,
      token_hash: hashToken(token),
      issue_key: input.issueKey,
      expires_at: new Date(now.getTime() + (input.days ?? TOKEN_VALID_DAYS) * DAY_MS),
    });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  return token;
}
