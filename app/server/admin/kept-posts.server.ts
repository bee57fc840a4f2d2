import { randomBytes } from "node:crypto";
import { createCookie, type Cookie } from "@remix-run/node";
import {
  ADMIN_SESSION_MESSAGES,
  KEPT_POST_MAX_BYTES,
  KEPT_POST_MS,
  keptFields,
  type KeptFields,
} from "~/domain/admin/session";
import { cookieOptions, readCookie } from "../cookies.server";
import { readMultipartForm } from "../forms.server";
import { KeptPost } from "../models/index.server";

/**
 * An admin post that arrives after its session ended (30 minutes idle) is kept, minus its secrets and files, for
 * an hour: the browser gets a cookie with the record's random id, and once an admin signs in
 * again (the account whose session ended, when its record said so) the page the post came from shows the form
 * filled from it with a notice, for the admin to check and save. Never applied by itself. Found by `_id` only
 * (ARCHITECTURE rule 7), given once (the delete is the claim), and purged by the cron past its hour.
 */

const KEPT_POST_COOKIE = "__kept_post";
let cookie: Cookie | undefined;
const keptCookie = () =>
  (cookie ??= createCookie(KEPT_POST_COOKIE, cookieOptions(KEPT_POST_COOKIE, { maxAge: KEPT_POST_MS / 1000 })));

/** The page a post came from: its Referer when that is the same page on this site (with the query: a tab), else the post's path. */
function pageOf(request: Request): string {
  const url = new URL(request.url);
  try {
    const from = new URL(request.headers.get("Referer") ?? "");
    if (from.origin === url.origin && from.pathname === url.pathname)
      return (from.pathname + from.search).slice(0, 1000);
  } catch {
    // No Referer, or not a URL: the post's own path.
  }
  return url.pathname;
}

/**
 * Keeps a refused admin post for `ownerId` (or, when null, the next admin to sign in from this browser): the page to
 * come back to and the cookie naming the record; null when the post has nothing to keep. A post too large to keep is
 * answered 413 with a sentence saying so; a body that is no form, the form reader's own 4xx.
 */
export async function keepRefusedPost(
  request: Request,
  ownerId: string | null,
): Promise<{ back: string; setCookie: string } | null> {
  let form: FormData;
  try {
    form = await readMultipartForm(request, { maxBytes: 4 * KEPT_POST_MAX_BYTES, files: {}, dropFiles: true });
  } catch (refusal) {
    if (refusal instanceof Response && refusal.status === 413) throw tooLarge();
    throw refusal;
  }
  const kept = keptFields(form.entries());
  if (kept === "too-large") throw tooLarge();
  if (!kept) return null;
  const id = randomBytes(24).toString("base64url");
  const back = pageOf(request);
  await KeptPost.create({
    _id: id,
    owner_id: ownerId,
    path: back,
    intent: kept.intent,
    values: kept.values,
    expires_at: new Date(Date.now() + KEPT_POST_MS),
  });
  return { back, setCookie: await keptCookie().serialize(id) };
}

const tooLarge = () =>
  new Response(ADMIN_SESSION_MESSAGES.tooLarge, {
    status: 413,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });

/**
 * The post kept in this browser for `userId` (an admin, signed in again) on the page `request` is for, taken once;
 * with the Set-Cookie that forgets it. Another admin's kept post stays for its owner; an expired one is deleted.
 */
export async function takeKeptPost(
  request: Request,
  userId: string,
): Promise<{ kept: KeptFields | null; setCookie?: string }> {
  const id = await readCookie(keptCookie(), request);
  if (typeof id !== "string") return { kept: null };
  const doc = await KeptPost.findById(id).lean();
  const forget = () => keptCookie().serialize("", { maxAge: 0 });
  if (!doc || doc.expires_at.getTime() <= Date.now()) {
    if (doc) await KeptPost.deleteOne({ _id: id });
    return { kept: null, setCookie: await forget() };
  }
  if ((doc.owner_id && doc.owner_id !== userId) || doc.path.split("?")[0] !== new URL(request.url).pathname)
    return { kept: null };
  const { deletedCount } = await KeptPost.deleteOne({ _id: id });
  if (deletedCount !== 1) return { kept: null };
  return {
    kept: { intent: doc.intent ?? null, values: doc.values as Record<string, string> },
    setCookie: await forget(),
  };
}
