import { createHash, randomBytes } from "node:crypto";
import mongoose from "mongoose";
import { claimOnce } from "./db.server";
import { AccountToken } from "./models/index.server";
import { notePrivateRead } from "./private-response.server";

/**
 * Single-use links e-mailed to an account's address (confirmation and password
 * reset): only the token's hash is stored; a link works once, until it expires.
 */

export const hashLinkToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function issueLink(
  purpose: "reset" | "verify",
  user: { id: string; email: string },
  validMs: number,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const link = await AccountToken.create({
    _id: hashLinkToken(token),
    purpose,
    user_id: user.id,
    email: user.email,
    expires_at: new Date(Date.now() + validMs),
  });
  // A new reset link ends every older one: only the newest e-mail works.
  if (purpose === "reset")
    await endResetLinks(user.id, { created_at: mongoose.trusted({ $lt: link.get("created_at") as Date }) });
  return token;
}

/** Ends the account's live reset links (those matching `which`). */
export async function endResetLinks(userId: string, which: Record<string, unknown> = {}) {
  await AccountToken.updateMany(
    { user_id: userId, purpose: "reset", used_at: null, ...which },
    { $set: { used_at: new Date() } },
  );
}

/** A link's record when it is for this purpose, unexpired and unused; null otherwise. */
export async function findLink(purpose: "reset" | "verify", token: string) {
  notePrivateRead(); // a page that reads a link's token holds it
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const link = await AccountToken.findById(hashLinkToken(token)).lean();
  if (!link || link.purpose !== purpose || link.used_at || link.expires_at.getTime() <= Date.now()) return null;
  return link;
}

/**
 * What the page an e-mailed link opens needs: the link's token from the address and whether it can
 * still be used. Opening the link changes nothing (mail scanners open links); its form uses it.
 */
export async function linkPage(request: Request, purpose: "reset" | "verify") {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, usable: Boolean(await findLink(purpose, token)) };
}

/** Uses a link once: true for the one request that claimed it. */
export async function spendLink(linkId: string): Promise<boolean> {
  if (!(await claimOnce(`account-token:${linkId}`))) return false;
  await AccountToken.updateOne({ _id: linkId }, { $set: { used_at: new Date() } });
  return true;
}
