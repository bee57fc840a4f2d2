import type { ActionFunctionArgs } from "@remix-run/node";
import { canOpenStep } from "~/domain/intake/data";
import { SPECIAL_STEPS } from "~/domain/intake/steps";
import { allProblems, saveArrivedFiles } from "~/server/intake/files.server";
import { loadSubmission } from "~/server/intake/draft.server";
import { oncePerPost } from "~/server/form-keys.server";
import { errorMessage, log } from "~/server/log.server";
import { requireTokenAccess } from "~/server/tokens.server";
import { isOverBudget } from "~/server/images.server";
import { readOneUpload, uploaderOf } from "~/server/intake/uploads.server";
import { inTurn } from "~/server/in-turn.server";

/**
 * /intake-form/upload: one file of step 4 sent on its own by the page with
 * JavaScript (components/intake/uploads.tsx), so the customer sees its progress
 * and the step's post never carries it again. The same checks as the step's
 * post: the intake link's cookie names the order (never a posted id), step 4
 * must be open to it, and the file passes the same limits and decoding
 * (server/intake/uploads.server.ts) before it joins the stored logo or photos. Answers JSON:
 * `problems` says, in words, why a file was not added (429: the hour's budget
 * of image pixels for this link or address is used up). Each answer is a Response
 * of its own: `data()` from a resource route reached the page's XMLHttpRequest
 * as 200 whatever its status (single fetch), so a 503 was never sent again.
 */
export async function action({ request }: ActionFunctionArgs) {
  const access = await requireTokenAccess(request, "intake");
  if (request.method !== "POST")
    return Response.json({ problems: ["Please use the form to upload."] }, { status: 405 });
  // A page sends one file at a time (two tabs, two; a resend may overlap a try the server still reads): one link's
  // files are received two at a time, a few more wait, and a flood is turned away before its bodies are read.
  const turn = await inTurn(`intake-upload:${access.orderId}`, UPLOAD_TURNS, () => receive(request, access));
  return turn?.value ?? Response.json({ problems: [UPLOAD_BUSY] }, { status: 429, headers: { "Retry-After": "5" } });
}

const UPLOAD_TURNS = { running: 2, waiting: 6 };
const UPLOAD_BUSY =
  "Another file from this form is still being received. Please wait until it has uploaded, then add this one again.";

async function receive(request: Request, access: { orderId: string }) {
  const form = await readOneUpload(request);
  if (![...form.values()].some((value) => value instanceof File && value.name))
    return Response.json({ problems: ["Please choose a file to upload."] }, { status: 400 });
  const before = await loadSubmission(access.orderId);
  if (!canOpenStep(SPECIAL_STEPS.uploads, before))
    return Response.json({ problems: ["Please complete the earlier steps first."] }, { status: 409 });
  try {
    // One file, stored once: a try whose answer was lost is sent again under the file's key and answered as the
    // first was (form-keys.server.ts); a refusal is not kept, so the next try is checked again.
    const problems = await oncePerPost(`intake-upload:${access.orderId}`, form, async () => {
      const found = allProblems(await saveArrivedFiles(uploaderOf(request, access.orderId), form, before));
      return { done: !found.length, answer: found, orderId: access.orderId };
    });
    return Response.json({ problems }, isOverBudget(problems) ? { status: 429 } : undefined);
  } catch (error) {
    log("error", "intake.upload_failed", { order_id: access.orderId, reason: errorMessage(error) });
    return Response.json(
      { problems: ["The file could not be saved just now. It is sent again shortly."] },
      { status: 503 },
    );
  }
}

export function loader() {
  return Response.json({ problems: ["Please use the form to upload."] }, { status: 405 });
}
