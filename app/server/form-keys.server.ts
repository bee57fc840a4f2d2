import { createHash, randomBytes } from "node:crypto";
import { FORM_KEY_FIELD, FORM_KEY_PATTERN } from "~/domain/form-key";
import { isDuplicateKeyError } from "./db.server";
import { FormReceipt } from "./models/index.server";

/** A new form key (the root loader puts one in every page; components/FormKey renders it). */
export const newFormKey = () => randomBytes(16).toString("base64url");

/** Names one order's copies on the customer's device (components/useDeviceCopy.ts) without showing its id. */
export const deviceCopyKey = (orderId: string) =>
  createHash("sha256").update(`device-copy:${orderId}`).digest("base64url").slice(0, 16);

/** Names a signed-in account's copies of forms that belong to no order (the contact form): never another's. */
export const accountCopyKey = (userId: string) => deviceCopyKey(`account:${userId}`);

/**
 * The id of one press of a form: its scope and its form key, never its content
 * (a resend of a press may carry more typing, and is still that one
 * press). The key is made per page render and the page is rendered again after
 * every answer, so each press has its own. Null when the post has no
 * well-formed key (it then runs as an ordinary post).
 */
export function receiptId(scope: string, form: FormData): string | null {
  const key = form.get(FORM_KEY_FIELD);
  if (typeof key !== "string" || !FORM_KEY_PATTERN.test(key)) return null;
  return `${scope}:${createHash("sha256").update(`${scope}\n${key}\n`).digest("base64url")}`;
}

/**
 * What an effect reports: its answer, and whether it happened (refusals are not kept, so a resend tries again);
 * and the order it was about, if any, so that deleting that order's data deletes the receipt too.
 */
export type Outcome<T> = { done: boolean; answer: T; orderId?: string };

const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 200;

export class StillRunningError extends Error {}

/**
 * Runs `effect` once per post (ARCHITECTURE.md rule 7): the first post claims
 * its receipt id by an insert under a unique index, runs the effect and stores
 * the answer; a resend of the same post (the first's answer was lost) gets the
 * stored answer and changes nothing. A resend arriving while the first still
 * runs waits for its answer (up to 10 s, then StillRunningError). A refusal or
 * a failure releases the claim, so the resend tries again.
 */
export async function oncePerPost<T>(scope: string, form: FormData, effect: () => Promise<Outcome<T>>): Promise<T> {
  const id = receiptId(scope, form);
  if (!id) return (await effect()).answer;
  while (!(await claim(id))) {
    const answer = await firstAnswer<T>(id);
    if (answer !== undefined) return answer;
    // The first was refused or failed meanwhile (its claim is gone): this one runs.
  }
  let outcome: Outcome<T>;
  try {
    outcome = await effect();
  } catch (error) {
    await FormReceipt.deleteOne({ _id: id }).catch(() => undefined);
    throw error;
  }
  if (outcome.done)
    await FormReceipt.updateOne({ _id: id }, { $set: { answer: outcome.answer, order_id: outcome.orderId ?? null } });
  else await FormReceipt.deleteOne({ _id: id });
  return outcome.answer;
}

/** The stored answer of a press already acted on (its key's receipt), or undefined. */
export async function storedAnswer<T>(scope: string, form: FormData): Promise<T | undefined> {
  const id = receiptId(scope, form);
  const receipt = id ? await FormReceipt.findById(id).lean() : null;
  return (receipt?.answer ?? undefined) as T | undefined;
}

async function claim(id: string): Promise<boolean> {
  try {
    await FormReceipt.create({ _id: id });
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/** The first post's answer once it has one; undefined when its claim was released. */
async function firstAnswer<T>(id: string): Promise<T | undefined> {
  for (let waited = 0; waited <= WAIT_FOR_FIRST_MS; waited += POLL_MS) {
    const receipt = await FormReceipt.findById(id).lean();
    if (!receipt) return undefined;
    if (receipt.answer !== undefined && receipt.answer !== null) return receipt.answer as T;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new StillRunningError("The first post is still being handled.");
}
