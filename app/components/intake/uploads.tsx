import { useBeforeUnload, useBlocker, useRevalidator } from "@remix-run/react";
import { useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from "react";
import { backoff } from "~/components/connection";
import { LiveRegion } from "~/components/LiveRegion";
import { describedBy, ErrorText, StepFormContext } from "./fields";
import type * as SenderModule from "./upload-sender";
import type { Upload } from "./upload-sender";

/**
 * Step 4's files, with JavaScript: a chosen file uploads on its own (XMLHttpRequest, for its upload progress)
 * to `/intake-form/upload`, one at a time, in ranged parts that continue after a drop, and its box is emptied so
 * the step's post (Next, Save & Exit) never carries it again. The code that sends (upload-sender.tsx) is loaded
 * only when a box is touched or a file chosen (steps 3 and 5 preload step 4's module, and
 * none of them pays for it up front). Leaving the page while a file is on its way asks first. Without
 * JavaScript the step's multipart post carries the files, as before.
 */

type Sender = typeof SenderModule;
let sender: Sender | null = null;
let loading: Promise<Sender> | null = null;
/** Files chosen before the sender arrived (its fetch failed: it is asked for again when the link is back). */
const chosen: { field: Upload["field"]; files: File[] }[] = [];
const listeners = new Set<() => void>();
const finished = new Set<() => void>();
const changed = () => listeners.forEach((l) => l());

/** The sending code, fetched once; then the files chosen meanwhile are queued. */
function load() {
  loading ??= import("./upload-sender").then(
    (module) => {
      module.connect({ changed, finished: () => finished.forEach((f) => f()), wait: backoff });
      sender = module;
      return module;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading.then(
    (module) => {
      for (const { field, files } of chosen.splice(0)) module.queue(field, files);
      changed();
    },
    () => undefined,
  );
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const EMPTY: Upload[] = [];
const snapshot = () => sender?.current() ?? EMPTY;
/** True while any file of this page is on its way or waiting (autosave waits: both write the photo list). */
export const uploadsPending = () => chosen.length > 0 || (sender?.pending() ?? false);

/**
 * Step 4 with JavaScript: takes over the file boxes of form `formId`, shows each new file once the server has it
 * (the step's data is loaded again: a file's write leaves the draft's save time as it was, so the form is not
 * shown anew and what was typed meanwhile stays in its boxes), and asks before the page is left with a file on
 * its way.
 */
export function useUploads(formId: string) {
  const list = useSyncExternalStore(subscribe, snapshot, () => EMPTY);
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;

  useEffect(() => {
    const fileBox = (event: Event) => {
      const input = event.target as HTMLInputElement;
      return input.type === "file" && input.form?.id === formId ? input : null;
    };
    // A box touched: the sending code is fetched while the person picks a file.
    const warm = (event: Event) => void (fileBox(event) && load());
    const onChange = (event: Event) => {
      const input = fileBox(event);
      const files = [...(input?.files ?? [])];
      if (!input || !files.length) return;
      chosen.push({ field: input.name === "logo" ? "logo" : "photos", files });
      input.value = "";
      changed();
      void load();
    };
    const onFinished = () => revalidate.current();
    const online = () => void (chosen.length ? load() : sender?.retry());
    document.addEventListener("change", onChange, true);
    document.addEventListener("focusin", warm, true);
    document.addEventListener("pointerdown", warm, true);
    window.addEventListener("online", online);
    finished.add(onFinished);
    return () => {
      document.removeEventListener("change", onChange, true);
      document.removeEventListener("focusin", warm, true);
      document.removeEventListener("pointerdown", warm, true);
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

/** The file on its way, in a live region, and the question before leaving (each box shows its own files: FileBox). */
export function UploadList({ list, blocker }: Pick<ReturnType<typeof useUploads>, "list" | "blocker">) {
  const current = list.find((u) => u.state === "sending") ?? list[list.length - 1];
  return (
    <>
      <LiveRegion className="visually-hidden">{current && sender ? sender.said(current, true) : null}</LiveRegion>
      {blocker.state === "blocked" && sender ? <sender.LeaveDialog blocker={blocker} /> : null}
    </>
  );
}

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
  const shown = useSyncExternalStore(subscribe, snapshot, () => EMPTY).filter(
    (u) => u.field === props.name && u.state !== "done",
  );
  const refused = shown.filter((u) => u.state === "refused");
  const waiting = chosen.filter((c) => c.field === props.name).flatMap((c) => c.files);
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
        aria-describedby={[describedBy(id, true, posted), ...(sender ? refused.map(sender.uploadLineId) : [])].join(
          " ",
        )}
      />
      <ErrorText id={id} error={posted} />
      {shown.length && sender ? <sender.Rows uploads={shown} /> : null}
      {waiting.map((file, i) => (
        <p key={i}>{`${file.name.slice(0, 80)}: waiting to upload`}</p>
      ))}
    </div>
  );
}
