import { useEffect, useRef } from "react";

/**
 * Step 4's files on their way (loaded by components/intake/uploads.tsx only once a file is chosen, so no step
 * pays for this code up front): one at a time, in ranged parts (routes/intake-form_.upload.ts), so a drop on a
 * slow link does not start the file again from 0. The first try sends the whole file; after a drop the page asks
 * the server how much arrived and sends the rest. The File is kept in memory until the server has it, each file
 * can be cancelled, and its line says the time left at the speed measured on this try.
 */

export const UPLOAD_PATH = "/intake-form/upload";
export const UPLOAD_MESSAGES = {
  failed: "The upload stopped (the connection dropped). It is sent again when the connection is back.",
  leave: "A file is still uploading. If you leave this page now, it will not be saved.",
  reload: "The upload was not accepted. Please reload the page and choose the file again.",
} as const;

type UploadState = "waiting" | "sending" | "failed" | "refused" | "done";
export type Upload = {
  id: number;
  /** The file's form key: its part on the server, and its answer stored once (a lost answer's resend changes nothing). */
  key: string;
  field: "logo" | "photos";
  file: File;
  state: UploadState;
  /** Percent the server has or is being sent. */
  percent: number;
  /** Seconds left at the speed measured on this try, once there is a measure. */
  secondsLeft: number | null;
  message: string | null;
  xhr: XMLHttpRequest | null;
  /** Sends that failed on the way (for the back-off; after one, the server is asked how much arrived). */
  attempts: number;
};

let uploads: Upload[] = [];
let nextId = 1;
let notify = () => {};
let onFinished = () => {};
let backoff = (_attempt: number) => 0;

/**
 * Ties this module to the page (uploads.tsx): `changed` re-renders whoever shows the files, `finished` shows a
 * stored file, `wait` is the page's back-off before a resend (components/connection.tsx, passed in rather than
 * imported: importing it here split it from the chunk every page loads).
 */
export function connect(page: { changed: () => void; finished: () => void; wait: (attempt: number) => number }) {
  notify = page.changed;
  onFinished = page.finished;
  backoff = page.wait;
}
export const current = () => uploads;

function change(id: number, patch: Partial<Upload>) {
  uploads = uploads.map((u) => (u.id === id ? { ...u, ...patch } : u));
  notify();
}
const find = (id: number) => uploads.find((u) => u.id === id);

/** A file not yet with the server (on its way, waiting its turn, or dropped). */
const unsent = (u: Upload) => u.state === "waiting" || u.state === "sending" || u.state === "failed";
export const pending = () => uploads.some(unsent);

const MEASURE_MS = 2000;

/** Sends the next waiting file: one at a time, so two never race for the stored photo list. */
function pump() {
  if (uploads.some((u) => u.state === "sending")) return;
  const next = uploads.find((u) => u.state === "waiting");
  if (next) void send(next);
}

async function send(next: Upload) {
  change(next.id, { state: "sending", message: null, secondsLeft: null });
  const at = `${UPLOAD_PATH}?key=${next.key}`;
  const dropped = (message: string = UPLOAD_MESSAGES.failed) => {
    if (find(next.id)?.state !== "sending") return; // cancelled meanwhile
    change(next.id, { state: "failed", xhr: null, message, attempts: next.attempts + 1, secondsLeft: null });
    // Online (a reset, a proxy's or our 503): back off, then send again; offline: wait for "online".
    if (navigator.onLine) setTimeout(() => retry(next.id), backoff(next.attempts));
    pump();
  };
  let from = 0;
  if (next.attempts) {
    // After a drop: how much arrived (or, when the last part's answer was lost, that answer).
    const asked = await fetch(at, { headers: { Accept: "application/json" } }).catch(() => null);
    const answer = asked?.ok ? ((await asked.json().catch(() => null)) as Answer | null) : null;
    if (!asked || !answer || asked.status >= 500) return dropped();
    if (answer.problems) return answered(next, asked.status, answer);
    from = answer.received ?? 0;
  }
  if (find(next.id)?.state !== "sending") return;
  const { file } = next;
  const xhr = new XMLHttpRequest();
  xhr.open(
    "PUT",
    `${at}&${new URLSearchParams({ field: next.field, name: file.name, size: String(file.size), offset: String(from) })}`,
  );
  xhr.setRequestHeader("Accept", "application/json");
  xhr.setRequestHeader("Content-Type", "application/octet-stream");
  const started = performance.now();
  xhr.upload.onprogress = (event) => {
    const done = from + event.loaded;
    const elapsed = performance.now() - started;
    const rate = event.loaded / elapsed; // bytes a millisecond, on this try
    change(next.id, {
      percent: Math.floor((done / file.size) * 100),
      secondsLeft: elapsed >= MEASURE_MS && rate > 0 ? Math.ceil((file.size - done) / rate / 1000) : null,
    });
  };
  xhr.onerror = () => dropped();
  xhr.ontimeout = () => dropped();
  xhr.onload = () => {
    let answer: Answer | null = null;
    try {
      answer = JSON.parse(xhr.responseText) as Answer;
    } catch {
      // Not our answer: a proxy's error page, a refusal in plain words, or the link's page.
    }
    const problem = answer?.problems?.join(" ") || null;
    // A server error, a part that did not follow what arrived (409 with the count), or a part cut short: ask again.
    if (xhr.status >= 500 || (answer && !answer.problems && typeof answer.received === "number"))
      return dropped(problem ?? undefined);
    if (xhr.status === 409 && typeof answer?.received === "number") return dropped();
    if (find(next.id)?.state === "sending") answered(next, xhr.status, answer);
  };
  change(next.id, { percent: Math.floor((from / file.size) * 100), xhr });
  xhr.send(file.slice(from));
}

type Answer = { problems?: string[]; received?: number };

/** The server's word on a whole file: stored (problems empty) or refused, why. */
function answered(next: Upload, status: number, answer: Answer | null) {
  const problem = answer?.problems?.join(" ") || null;
  if (!answer) change(next.id, { state: "refused", xhr: null, message: status >= 400 ? null : UPLOAD_MESSAGES.reload });
  else if (status >= 300 || problem)
    change(next.id, { state: "refused", xhr: null, message: problem ?? UPLOAD_MESSAGES.reload });
  else {
    change(next.id, { state: "done", xhr: null, message: null, percent: 100 });
    onFinished();
  }
  pump();
}

/** Files chosen in a box: queued (the box was emptied: the step's post must not carry them again). */
export function queue(field: Upload["field"], files: File[]) {
  // A new logo replaces one still waiting.
  if (field === "logo") uploads = uploads.filter((u) => u.field !== "logo" || u.state === "sending");
  uploads = [
    ...uploads.filter((u) => u.state !== "done" && u.state !== "refused"),
    ...files.map((file) => ({
      id: nextId++,
      key: newUploadKey(),
      field,
      file,
      state: "waiting" as const,
      percent: 0,
      secondsLeft: null,
      message: null,
      xhr: null,
      attempts: 0,
    })),
  ];
  notify();
  pump();
}

/** A random form key (22 URL-safe characters, FORM_KEY_PATTERN) for one file. */
const newUploadKey = () =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** Dropped uploads (or the one `id`) are sent again: on "Try again", back online, or after the back-off. */
export function retry(id?: number) {
  for (const u of uploads)
    if (u.state === "failed" && (id === undefined || u.id === id)) change(u.id, { state: "waiting", message: null });
  pump();
}

/** One file cancelled: stopped, forgotten, and what the server has of it deleted. */
function cancel(id: number) {
  const u = find(id);
  if (!u) return;
  uploads = uploads.filter((other) => other.id !== id);
  u.xhr?.abort();
  notify();
  void fetch(`${UPLOAD_PATH}?key=${u.key}`, { method: "DELETE" }).catch(() => undefined);
  pump();
}

/** Leaving without the files: every upload still out is stopped and forgotten. */
export function abandon() {
  for (const u of uploads) if (unsent(u)) cancel(u.id);
}

/** What a file's line says (and, for the file on its way, the live region: each quarter, not every percent). */
export function said(u: Upload, quarters = false) {
  const name = u.file.name.slice(0, 80);
  switch (u.state) {
    case "sending":
      if (u.percent >= 100) return `${name}: sent, being checked`;
      if (quarters) return `Uploading ${name}: ${Math.floor(u.percent / 25) * 25}%`;
      return `Uploading ${name}: ${u.percent}%${u.secondsLeft === null ? "" : `, ${timeLeft(u.secondsLeft)}`}`;
    case "waiting":
      return `${name}: waiting to upload`;
    case "done":
      return `${name} uploaded. ${u.message ?? ""}`.trim();
    default:
      // The server's refusals name the file already.
      return u.message?.startsWith(name) ? u.message : `${name}: ${u.message ?? UPLOAD_MESSAGES.failed}`;
  }
}

const timeLeft = (seconds: number) =>
  seconds < 60 ? `about ${Math.max(seconds, 1)} s left` : `about ${Math.ceil(seconds / 60)} min left`;

/** The element id of an upload's line (a refused file's box is described by it). */
export const uploadLineId = (u: Pick<Upload, "id">) => `upload-${u.id}`;

/** The question before leaving with a file on its way. */
export function LeaveDialog({ blocker }: { blocker: { reset?: () => void; proceed?: () => void } }) {
  return (
    <div className="flash flash-error" role="alertdialog" aria-label="Leave this page?">
      <p>{UPLOAD_MESSAGES.leave}</p>
      <p className="actions">
        <button type="button" className="button button-primary" onClick={() => blocker.reset?.()}>
          Stay until it has uploaded
        </button>{" "}
        <button
          type="button"
          className="button"
          onClick={() => {
            abandon();
            blocker.proceed?.();
          }}
        >
          Leave without it
        </button>
      </p>
    </div>
  );
}

/** Refused files already focused, by id (module-wide: a box's rows come and go). */
const told = new Set<number>();

/** A box's files: each line, its progress and Cancel, or Try again; focus to the form's alert when one is newly refused. */
export function Rows({ uploads: shown }: { uploads: Upload[] }) {
  const fresh = shown.filter((u) => u.state === "refused" && !told.has(u.id));
  const key = fresh.map((u) => u.id).join(",");
  const ref = useRef(fresh);
  ref.current = fresh;
  useEffect(() => {
    const last = ref.current.at(-1);
    if (!last) return;
    ref.current.forEach((u) => told.add(u.id));
    const line = document.getElementById(uploadLineId(last));
    (line?.closest("form")?.querySelector<HTMLElement>(".form-alert") ?? line)?.focus();
  }, [key]);
  return (
    <ul className="uploads" aria-label="Uploads">
      {shown.map((u) => (
        <li key={u.id}>
          <p
            id={uploadLineId(u)}
            className={u.state === "failed" || u.state === "refused" ? "upload-problem" : undefined}
            tabIndex={u.state === "refused" ? -1 : undefined}
          >
            {said(u)}
          </p>
          {u.state === "sending" || u.state === "waiting" ? (
            <progress max={100} value={u.percent} aria-label={`Upload of ${u.file.name.slice(0, 80)}`}>
              {u.percent}%
            </progress>
          ) : null}
          {u.state === "failed" ? (
            <button type="button" className="button" onClick={() => retry()}>
              Try again
            </button>
          ) : null}
          {unsent(u) ? (
            <button
              type="button"
              className="button"
              aria-label={`Cancel ${u.file.name.slice(0, 80)}`}
              onClick={() => cancel(u.id)}
            >
              Cancel
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
