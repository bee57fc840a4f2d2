import { useBeforeUnload, useBlocker, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { createPortal } from "react-dom";
import { LiveRegion } from "~/components/LiveRegion";
import { put } from "~/components/useKeepTyping";

/**
 * Step 4's files, with JavaScript: a chosen file uploads on its own
 * (XMLHttpRequest, for its upload progress) to `/intake-form/upload`, one at a
 * time, and its box is emptied so the step's post (Next, Save & Exit) never
 * carries it again. The File is kept in memory until the server has it: a
 * dropped upload is sent again when the browser is back online or on "Try
 * again", without choosing the file again. Leaving the page while a file is
 * on its way asks first. Without JavaScript the step's multipart post carries
 * the files, as before.
 */

export const UPLOAD_PATH = "/intake-form/upload";
export const UPLOAD_MESSAGES = {
  failed: "The upload stopped (the connection dropped). It is sent again when the connection is back.",
  leave: "A file is still uploading. If you leave this page now, it will not be saved.",
  reload: "The upload was not accepted. Please reload the page and choose the file again.",
} as const;

type UploadState = "waiting" | "sending" | "failed" | "refused" | "done";
type Upload = {
  id: number;
  field: "logo" | "photos";
  file: File;
  state: UploadState;
  /** Percent sent. */
  percent: number;
  message: string | null;
  xhr: XMLHttpRequest | null;
  /** Sends that failed on the way (for the back-off). */
  attempts: number;
};
/** Back-off between sends of a dropped upload while the browser says it is online. */
const BACKOFF_MS = [5_000, 15_000, 30_000, 60_000];

let uploads: Upload[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const finished = new Set<() => void>();

function change(id: number, patch: Partial<Upload>) {
  uploads = uploads.map((u) => (u.id === id ? { ...u, ...patch } : u));
  listeners.forEach((l) => l());
}

/** A file not yet with the server (on its way, waiting its turn, or dropped). */
const unsent = (u: Upload) => u.state === "waiting" || u.state === "sending" || u.state === "failed";
/** True while any file of this page is on its way or waiting (autosave waits: both write the photo list). */
export const uploadsPending = () => uploads.some(unsent);

/** Sends the next waiting file: one at a time, so two never race for the stored photo list. */
function pump() {
  if (uploads.some((u) => u.state === "sending")) return;
  const next = uploads.find((u) => u.state === "waiting");
  if (!next) return;
  const xhr = new XMLHttpRequest();
  const body = new FormData();
  body.append(next.field, next.file);
  xhr.open("POST", UPLOAD_PATH);
  xhr.setRequestHeader("Accept", "application/json");
  xhr.upload.onprogress = (event) => {
    if (event.lengthComputable) change(next.id, { percent: Math.floor((event.loaded / event.total) * 100) });
  };
  const dropped = (message: string = UPLOAD_MESSAGES.failed) => {
    change(next.id, { state: "failed", xhr: null, message, attempts: next.attempts + 1 });
    // Online (a reset, a proxy's or our 503): back off, then send again; offline: wait for "online".
    if (navigator.onLine) setTimeout(() => retry(next.id), BACKOFF_MS[Math.min(next.attempts, BACKOFF_MS.length - 1)]);
    pump();
  };
  xhr.onerror = () => dropped();
  xhr.ontimeout = () => dropped();
  xhr.onload = () => {
    let answer: { problems?: string[] } | null = null;
    try {
      answer = JSON.parse(xhr.responseText) as { problems?: string[] };
    } catch {
      // Not our answer: a proxy's error page, a refusal in plain words, or the link's page.
    }
    const problem = answer?.problems?.join(" ") || null;
    if (xhr.status >= 500) return dropped(problem ?? undefined);
    if (!answer) return refused(xhr.status >= 400 ? xhr.responseText.slice(0, 300) : UPLOAD_MESSAGES.reload);
    if (xhr.status >= 300 || problem) return refused(problem ?? UPLOAD_MESSAGES.reload);
    change(next.id, { state: "done", xhr: null, message: null });
    finished.forEach((f) => f());
    pump();
  };
  const refused = (message: string) => {
    change(next.id, { state: "refused", xhr: null, message });
    pump();
  };
  change(next.id, { state: "sending", percent: 0, message: null, xhr });
  xhr.send(body);
}

/** Files chosen in a box: queued, and the box emptied (the step's post must not carry them again). */
function queue(input: HTMLInputElement) {
  const field: Upload["field"] = input.name === "logo" ? "logo" : "photos";
  const files = [...(input.files ?? [])];
  if (!files.length) return;
  // A new logo replaces one still waiting.
  if (field === "logo") uploads = uploads.filter((u) => u.field !== "logo" || u.state === "sending");
  uploads = [
    ...uploads.filter((u) => u.state !== "done" && u.state !== "refused"),
    ...files.map((file) => ({
      id: nextId++,
      field,
      file,
      state: "waiting" as const,
      percent: 0,
      message: null,
      xhr: null,
      attempts: 0,
    })),
  ];
  input.value = "";
  listeners.forEach((l) => l());
  pump();
}

/** Dropped uploads (or the one `id`) are sent again: on "Try again", back online, or after the back-off. */
function retry(id?: number) {
  for (const u of uploads)
    if (u.state === "failed" && (id === undefined || u.id === id)) change(u.id, { state: "waiting", message: null });
  pump();
}

/** Leaving without the files: every upload still out is stopped and forgotten. */
function abandon() {
  for (const u of uploads) u.xhr?.abort();
  uploads = [];
  listeners.forEach((l) => l());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const EMPTY: Upload[] = [];

/** What was typed in a form, by control (so it can be put back after the step is shown again). */
function snapshot(form: HTMLFormElement) {
  return [...form.elements]
    .filter((el): el is HTMLInputElement => {
      const c = el as HTMLInputElement;
      return Boolean(c.name) && !["file", "hidden", "submit", "button"].includes(c.type);
    })
    .map((el) => ({
      name: el.name,
      choice: el.type === "checkbox" || el.type === "radio" ? el.value : null,
      value: el.type === "checkbox" || el.type === "radio" ? el.checked : el.value,
    }));
}

/**
 * Step 4 with JavaScript: takes over the file boxes of form `formId`, shows
 * each new file once the server has it (the step's data is loaded again, and
 * what was typed meanwhile put back), and asks before the page is left with
 * a file on its way. `version` changes when the step is shown again.
 */
export function useUploads(formId: string, version: unknown) {
  const list = useSyncExternalStore(
    subscribe,
    () => uploads,
    () => EMPTY,
  );
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const typed = useRef<ReturnType<typeof snapshot> | null>(null);

  useEffect(() => {
    const onChange = (event: Event) => {
      const input = event.target as HTMLInputElement;
      if (input.type !== "file" || input.form?.id !== formId) return;
      queue(input);
    };
    const onFinished = () => {
      const form = document.getElementById(formId) as HTMLFormElement | null;
      if (form) typed.current = snapshot(form);
      revalidate.current();
    };
    document.addEventListener("change", onChange, true);
    const online = () => retry();
    window.addEventListener("online", online);
    finished.add(onFinished);
    return () => {
      document.removeEventListener("change", onChange, true);
      window.removeEventListener("online", online);
      finished.delete(onFinished);
    };
  }, [formId]);

  // The step was shown again with the new file: what was typed meanwhile goes back in.
  useEffect(() => {
    const kept = typed.current;
    const form = document.getElementById(formId) as HTMLFormElement | null;
    if (!kept || !form || revalidator.state !== "idle") return;
    typed.current = null;
    for (const { name, choice, value } of kept) {
      const el = [...form.elements].find(
        (c) => (c as HTMLInputElement).name === name && (choice === null || (c as HTMLInputElement).value === choice),
      );
      if (el) put(el, value);
    }
  }, [formId, version, revalidator.state]);

  useBeforeUnload((event) => {
    if (uploadsPending()) event.preventDefault();
  });
  const blocker = useBlocker(() => uploadsPending());
  return { list, blocker };
}

/** What a file's line says (and, for the file on its way, the live region: each quarter, not every percent). */
function said(u: Upload, quarters = false) {
  const name = u.file.name.slice(0, 80);
  switch (u.state) {
    case "sending":
      if (u.percent >= 100) return `${name}: sent, being checked`;
      return `Uploading ${name}: ${quarters ? Math.floor(u.percent / 25) * 25 : u.percent}%`;
    case "waiting":
      return `${name}: waiting to upload`;
    case "done":
      return `${name} uploaded. ${u.message ?? ""}`.trim();
    default:
      return `${name}: ${u.message ?? UPLOAD_MESSAGES.failed}`;
  }
}

/** Each file on its way beside its box (by portal: the boxes are the step's), and the question before leaving. */
export function UploadList({
  list,
  blocker,
  formId,
  version,
}: ReturnType<typeof useUploads> & { formId: string; version: unknown }) {
  const [boxes, setBoxes] = useState<Partial<Record<Upload["field"], Element>>>({});
  useEffect(() => {
    const box = (name: string) =>
      document.querySelector(`#${formId} input[type="file"][name="${name}"]`)?.parentElement ?? undefined;
    setBoxes({ logo: box("logo"), photos: box("photos") });
  }, [formId, version]);
  const current = list.find((u) => u.state === "sending") ?? list[list.length - 1];
  return (
    <>
      <LiveRegion className="visually-hidden">{current ? said(current, true) : null}</LiveRegion>
      {(["logo", "photos"] as const).map((field) => {
        const shown = list.filter((u) => u.field === field && u.state !== "done");
        const box = boxes[field];
        return box && shown.length ? createPortal(<Rows key={field} uploads={shown} box={box} />, box) : null;
      })}
      {blocker.state === "blocked" ? (
        <div className="flash flash-error" role="alertdialog" aria-label="Leave this page?">
          <p>{UPLOAD_MESSAGES.leave}</p>
          <p className="actions">
            <button type="button" className="button button-primary" onClick={() => blocker.reset()}>
              Stay until it has uploaded
            </button>{" "}
            <button
              type="button"
              className="button"
              onClick={() => {
                abandon();
                blocker.proceed();
              }}
            >
              Leave without it
            </button>
          </p>
        </div>
      ) : null}
    </>
  );
}

/** The element id of an upload's line (a refused file's box is described by it). */
export const uploadLineId = (u: Pick<Upload, "id">) => `upload-${u.id}`;

/**
 * A refused file's box is marked invalid and described by the line that says why, and focus moves to that
 * line (WCAG 2.4.3, 3.3.1): the person hears what to fix, as after a refused post.
 */
function useRefusalFocus(shown: Upload[], box: Element | undefined) {
  const told = useRef(new Set<number>());
  const refused = shown.filter((u) => u.state === "refused");
  const key = refused.map((u) => u.id).join(",");
  useEffect(() => {
    const input = box?.querySelector<HTMLInputElement>('input[type="file"]');
    const fresh = refused.filter((u) => !told.current.has(u.id));
    const describe = (ids: string[]) => {
      if (!input) return;
      const own = (input.getAttribute("aria-describedby") ?? "")
        .split(" ")
        .filter((id) => id && !id.startsWith("upload-"));
      const all = [...own, ...ids].join(" ");
      if (all) input.setAttribute("aria-describedby", all);
      else input.removeAttribute("aria-describedby");
      if (ids.length) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    };
    describe(refused.map(uploadLineId));
    const last = fresh.at(-1);
    fresh.forEach((u) => told.current.add(u.id));
    const line = last ? document.getElementById(uploadLineId(last)) : null;
    if (line) {
      line.tabIndex = -1;
      line.focus();
    }
    return () => describe([]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` names the refused uploads
  }, [key, box]);
}

function Rows({ uploads: shown, box }: { uploads: Upload[]; box: Element }) {
  useRefusalFocus(shown, box);
  return (
    <ul className="uploads" aria-label="Uploads">
      {shown.map((u) => (
        <li key={u.id}>
          <p
            id={uploadLineId(u)}
            className={u.state === "failed" || u.state === "refused" ? "upload-problem" : undefined}
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
        </li>
      ))}
    </ul>
  );
}
