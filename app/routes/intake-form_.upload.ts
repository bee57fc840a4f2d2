import { setTimeout as sleep } from "node:timers/promises";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { canOpenStep } from "~/domain/intake/data";
import { SPECIAL_STEPS } from "~/domain/intake/steps";
import { allProblems } from "~/domain/intake/branding";
import { saveArrivedFiles } from "~/server/intake/save.server";
import { loadSubmission } from "~/server/intake/draft.server";
import { oncePerPost, storedAnswer } from "~/server/form-keys.server";
import { errorMessage, log } from "~/server/log.server";
import { requireTokenAccess, type TokenAccess } from "~/server/tokens.server";
import { retryStatus } from "~/server/images.server";
import { readOneUpload, uploaderOf } from "~/server/intake/uploads.server";
import {
  deletePart,
  partForm,
  partKey,
  partQuery,
  PartRefusal,
  receivedBytes,
  receivePart,
} from "~/server/intake/parts.server";
import { inTurn, withinBurst } from "~/server/in-turn.server";
import { clientAddress } from "~/server/rate-limit.server";

/**
 * /intake-form/upload: one file of step 4 sent on its own by the page with
 * JavaScript (components/intake/uploads.tsx), so the customer sees its progress
 * and the step's post never carries it again. The same checks as the step's
 * post: the intake link's cookie names the order (never a posted id), step 4
 * must be open to it, and the file passes the same limits and decoding
 * (server/intake/uploads.server.ts) before it joins the stored logo or photos. Answers JSON:
 * `problems` says, in words, why a file was not added (429: the hour's budget
 * of image pixels for this link or address is used up; 503: the app's line of
 * images to decode is full, and the page sends the file again shortly). Each answer is a Response
 * of its own: `data()` from a resource route reached the page's XMLHttpRequest
 * as 200 whatever its status (single fetch), so a 503 was never sent again.
 *
 * A file may come whole (POST, multipart) or in ranged parts (server/intake/parts.server.ts), so a drop on a
 * slow link does not start it again from 0: PUT `?key&field&name&size&offset` with the bytes from `offset`
 * (answers `received`, and `problems` once the file is whole), GET `?key` asks how much has arrived, DELETE
 * `?key` cancels the file.
 *
 * Before any of that (the link's cookie is checked in the database), an address that sends more than
 * UPLOAD_BURST.max upload requests in a minute is answered 429 (`turnedAway`): a page sends each file once (a part more
 * after each drop), and a flood of small tries from one address, each refused after the link, the draft and the
 * file's header were read, took most of a core and doubled sign-in times.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (!withinBurst(burstKey(request), UPLOAD_BURST)) return turnedAway(UPLOADS_TOO_FAST, 60);
  const access = await requireTokenAccess(request, "intake");
  if (request.method === "DELETE")
    return partAnswer(async () => {
      await deletePart(access.orderId, partKey(new URL(request.url)));
      return Response.json({ received: 0 });
    });
  if (request.method !== "POST" && request.method !== "PUT")
    return Response.json({ problems: ["Please use the form to upload."] }, { status: 405 });
  // A page sends one file at a time (two tabs, two; a resend may overlap a try the server still reads): one link's
  // files (whole or in parts) are received two at a time, a few more wait, and a flood is turned away before its
  // bodies are read.
  const turn = await inTurn(`intake-upload:${access.orderId}`, UPLOAD_TURNS, () =>
    request.method === "PUT" ? partAnswer(() => putPart(request, access)) : receive(request, access),
  );
  // A page never has eight of one link's files on their way: the line is full only for a loop.
  return turn ? turn.value : turnedAway(UPLOAD_BUSY, 5);
}

/** A part request's answer: a refusal in words, with its status (and, for an offset out of step, what arrived). */
async function partAnswer(run: () => Promise<Response>) {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PartRefusal)
      return Response.json({ problems: [error.message], received: error.received }, { status: error.status });
    throw error;
  }
}

const UPLOAD_TURNS = { running: 2, waiting: 6 };
/** How long a try turned away (the link's line full, the address's minute used up) waits for its 429. */
const TURNED_AWAY_PAUSE_MS = 1000;
/** Upload requests (whole files, parts, questions) one address may send in a minute: 13 files, each resent many times. */
export const UPLOAD_BURST = { max: 120, windowMs: 60_000 };
export const UPLOADS_TOO_FAST =
  "Too many files were sent from your connection in the last minute. Please wait a minute, then add this one again.";
const burstKey = (request: Request) => `intake-upload:${clientAddress(request)}`;
/**
 * A try turned away (the link's line full, the address's minute used up): 429 with `message`, after
 * TURNED_AWAY_PAUSE_MS, which costs a timer, so a sender that tries again the moment it is answered (a loop, never a
 * page) sends one try a second per connection, not hundreds. The connection closes after the answer, so the body is
 * not read (a flood of 3 MB tries, each read to its end to keep the connection, took the CPU the line saved).
 */
async function turnedAway(message: string, retryAfterSeconds: number) {
  await sleep(TURNED_AWAY_PAUSE_MS);
  return Response.json(
    { problems: [message] },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds), Connection: "close" } },
  );
}
const UPLOAD_BUSY =
  "Another file from this form is still being received. Please wait until it has uploaded, then add this one again.";

async function receive(request: Request, access: TokenAccess) {
  const form = await readOneUpload(request);
  if (![...form.values()].some((value) => value instanceof File && value.name))
    return Response.json({ problems: ["Please choose a file to upload."] }, { status: 400 });
  return storeOne(request, access, form);
}

/** How much of a file sent in parts has arrived (`received`), or, once it was stored, its answer (`problems`). */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!withinBurst(burstKey(request), UPLOAD_BURST)) return turnedAway(UPLOADS_TOO_FAST, 60);
  const access = await requireTokenAccess(request, "intake");
  const url = new URL(request.url);
  if (!url.searchParams.has("key"))
    return Response.json({ problems: ["Please use the form to upload."] }, { status: 405 });
  return partAnswer(async () => {
    const key = partKey(url);
    const problems = await storedAnswer<string[]>(scopeOf(access), partForm(key));
    if (problems) return Response.json({ problems });
    return Response.json({ received: await receivedBytes(access.orderId, key) });
  });
}

const scopeOf = (access: TokenAccess) => `intake-upload:${access.orderId}`;

const stepClosed = () => Response.json({ problems: ["Please complete the earlier steps first."] }, { status: 409 });

/** A part of a file: appended under the link's order; once the file is whole, checked and stored as a whole one. */
async function putPart(request: Request, access: TokenAccess) {
  const query = partQuery(new URL(request.url));
  // Step 4 must be open to the link before any byte is kept.
  if (!canOpenStep(SPECIAL_STEPS.uploads, await loadSubmission(access.orderId))) return stepClosed();
  const whole = await receivePart(access.orderId, query, request.body);
  if (!whole) return Response.json({ received: await receivedBytes(access.orderId, query.key) });
  const answer = await storeOne(request, access, partForm(query.key, query.field, whole));
  // Stored or refused, the part has done its work (a store that failed keeps it: the resend completes it).
  if (answer.status !== 503) await deletePart(access.orderId, query.key);
  return answer;
}

async function storeOne(request: Request, access: TokenAccess, form: FormData) {
  const before = await loadSubmission(access.orderId);
  if (!canOpenStep(SPECIAL_STEPS.uploads, before)) return stepClosed();
  try {
    // One file, stored once: a try whose answer was lost is sent again under the file's key and answered as the
    // first was (form-keys.server.ts); a refusal is not kept, so the next try is checked again.
    const problems = await oncePerPost(scopeOf(access), form, async () => {
      const found = allProblems(await saveArrivedFiles(uploaderOf(request, access.orderId), form, before));
      return { done: !found.length, answer: found, orderId: access.orderId };
    });
    return Response.json({ problems }, { status: retryStatus(problems) ?? 200 });
  } catch (error) {
    log("error", "intake.upload_failed", { order_id: access.orderId, reason: errorMessage(error) });
    return Response.json(
      { problems: ["The file could not be saved just now. It is sent again shortly."] },
      { status: 503 },
    );
  }
}
