import { useBeforeUnload, useBlocker, useRevalidator } from "@remix-run/react";
import { useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from "react";
import { backoff } from "~/components/connection";
import { LiveRegion } from "~/components/LiveRegion";
import { FORM_KEY_FIELD } from "~/domain/form-key";
import { describedBy, ErrorText, StepFormContext } from "./fields";

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
  /** The file's form key: sent with every try, so a try whose answer was lost is not stored twice. */
  key: string;
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
  body.append(FORM_KEY_FIELD, next.key);
  body.append(next.field, next.file);
  xhr.open("POST", UPLOAD_PATH);
  xhr.setRequestHeader("Accept", "application/json");
  xhr.upload.onprogress = (event) => {
    if (event.lengthComputable) change(next.id, { percent: Math.floor((event.loaded / event.total) * 100) });
  };
  const dropped = (message: string = UPLOAD_MESSAGES.failed) => {
    change(next.id, { state: "failed", xhr: null, message, attempts: next.attempts + 1 });
    // Online (a reset, a proxy's or our 503): back off, then send again; offline: wait for "online".
    if (navigator.onLine) setTimeout(() => retry(next.id), backoff(next.attempts));
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
      key: newUploadKey(),
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

/** A random form key (22 URL-safe characters, FORM_KEY_PATTERN) for one file. */
const newUploadKey = () =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

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

/**
 * Step 4 with JavaScript: takes over the file boxes of form `formId`, shows
 * each new file once the server has it (the step's data is loaded again: a
 * file's write leaves the draft's save time as it was, so the form is not
 * shown anew and what was typed meanwhile stays in its boxes), and asks before
 * the page is left with a file on its way.
 */
export function useUploads(formId: string) {
  const list = useSyncExternalStore(
    subscribe,
    () => uploads,
    () => EMPTY,
  );
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;

  useEffect(() => {
    const onChange = (event: Event) => {
      const input = event.target as HTMLInputElement;
      if (input.type !== "file" || input.form?.id !== formId) return;
      queue(input);
    };
    const onFinished = () => revalidate.current();
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

  useBeforeUnload((event) => {
    if (uploadsPending()) event.preventDefault();
  });
  const blocker = useBlocker(() => uploadsPending());
  // Why files were refused, for the form's alert (the spec's sentences, as a refused post says them).
  const refused = list.filter((u) => u.state === "refused" && u.message).map((u) => u.message);
  return { list, blocker, refused: refused.length ? refused.join(" ") : null };
}

/** What step 4's route module hands the step page (components/intake/StepPage.tsx): only step 4 ships this module. */
export const STEP_UPLOADS = { use: useUploads, List: UploadList, pending: uploadsPending };
export type StepUploads = typeof STEP_UPLOADS;

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
      // The server's refusals name the file already.
      return u.message?.startsWith(name) ? u.message : `${name}: ${u.message ?? UPLOAD_MESSAGES.failed}`;
  }
}

/** The file on its way, in a live region, and the question before leaving (each box shows its own files: FileBox). */
export function UploadList({ list, blocker }: Pick<ReturnType<typeof useUploads>, "list" | "blocker">) {
  const current = list.find((u) => u.state === "sending") ?? list[list.length - 1];
  return (
    <>
      <LiveRegion className="visually-hidden">{current ? said(current, true) : null}</LiveRegion>
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
const uploadLineId = (u: Pick<Upload, "id">) => `upload-${u.id}`;

/**
 * A file box of step 4: its hint and, after a refused post or upload, why, tied to it (WCAG 1.3.1,
 * 3.3.1); with JavaScript, its files on their way beside it. A refused file marks the box invalid and
 * describes it by the line that says why, and focus moves to the form's alert, which says it too (WCAG
 * 2.4.3): the person hears what to fix, as after a refused post.
 */
export function FileBox(props: {
  name: Upload["field"];
  label: ReactNode;
  hint: string;
  accept: string;
  multiple?: boolean;
}) {
  const posted = useContext(StepFormContext).errors[props.name]?.join(" ");
  const shown = useSyncExternalStore(
    subscribe,
    () => uploads,
    () => EMPTY,
  ).filter((u) => u.field === props.name && u.state !== "done");
  const refused = shown.filter((u) => u.state === "refused");
  useRefusalFocus(refused);
  const id = `f-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <p className="hint" id={`${id}-hint`}>
        {props.hint}
      </p>
      <input
        id={id}
        type="file"
        name={props.name}
        multiple={props.multiple}
        accept={props.accept}
        aria-invalid={posted || refused.length ? true : undefined}
        aria-describedby={[describedBy(id, true, posted), ...refused.map(uploadLineId)].join(" ")}
      />
      <ErrorText id={id} error={posted} />
      {shown.length ? <Rows uploads={shown} /> : null}
    </div>
  );
}

/** Focus to the form's alert (or the line) when a file is newly refused. */
function useRefusalFocus(refused: Upload[]) {
  const told = useRef(new Set<number>());
  const fresh = refused.filter((u) => !told.current.has(u.id));
  const key = fresh.map((u) => u.id).join(",");
  useEffect(() => {
    const last = fresh.at(-1);
    if (!last) return;
    fresh.forEach((u) => told.current.add(u.id));
    const line = document.getElementById(uploadLineId(last));
    (line?.closest("form")?.querySelector<HTMLElement>(".form-alert") ?? line)?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` names the newly refused uploads
  }, [key]);
}

function Rows({ uploads: shown }: { uploads: Upload[] }) {
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
        </li>
      ))}
    </ul>
  );
}
