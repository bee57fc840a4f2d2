import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { INTENT_VALUES } from "~/domain/intake/intents";
import { SAVE_FIELDS, type Conflict } from "~/domain/intake/save-order";
import { backoff, useDeliveries } from "~/components/connection";

/** Spec: the open step is saved every 30 seconds. */
export const AUTOSAVE_MS = 30_000;
/** This page's id as a writer of the draft, and the number of its latest save (domain/intake/save-order.ts). */
export const WRITER = typeof window === "undefined" ? "" : Math.random().toString(36).slice(2, 14).padEnd(8, "0");
let seq = 0;
export const nextSeq = () => String(++seq);

const STAMP = new Set<string>(Object.values(SAVE_FIELDS));

/** `savedTime` is formatted by the server (domain/dates.ts: Sydney time, whatever the browser's zone). */
type AutosaveAnswer = { savedTime?: string | null; conflict?: Conflict };

/**
 * With JavaScript: saves the step every 30 s while it is open, only when
 * something changed since the last save, never two at once nor beside a
 * press of the step still on its way. A refused save is
 * tried again with back-off and `unsaved` stays true until one lands; a save
 * refused because the step changed elsewhere returns the `conflict`.
 */
export function useAutosave(
  formId: string,
  step: number,
  savedAt: string | null,
  /** True while the page's files are on their way (step 4): both write the stored photo list. */
  filesPending: () => boolean = () => false,
) {
  const fetcher = useFetcher<AutosaveAnswer>();
  // A ref, so re-renders never restart the timer or move the baseline past unsaved edits.
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const pending = useRef(filesPending);
  pending.current = filesPending;
  // Posts of this step on their way (a press of Add, Remove, Next; held by a dropped link or not).
  const posts = useDeliveries().filter((d) => d.post && d.path === `/intake-form/${step}`);
  const posting = useRef(false);
  posting.current = posts.length > 0;
  const last = useRef<string | null>(null);
  const saveNow = useRef<() => void>(() => undefined);
  const failures = useRef(0);
  const [lastSaved, setLastSaved] = useState<string | null>(null);
  const [unsaved, setUnsaved] = useState(false);
  useEffect(() => {
    const serialize = () => {
      const el = document.getElementById(formId) as HTMLFormElement | null;
      if (!el) return null;
      const params = new URLSearchParams();
      // Empty boxes are not content: conditional fields appearing or vanishing must not count as a change.
      // The save's stamp is not content either: it is added when sending.
      for (const [k, v] of new FormData(el))
        if (typeof v === "string" && v !== "" && k !== "intent" && !STAMP.has(k)) params.append(k, v);
      return params;
    };
    last.current = serialize()?.toString() ?? null;
    saveNow.current = () => {
      const params = serialize();
      // Not while a file uploads (both write the stored photo list), nor while a press of the step is out: the
      // page does not show that press's answer yet (an Add's new item), so this save, newer, would undo it. The
      // next tick saves.
      if (
        !params ||
        fetcherRef.current.state !== "idle" ||
        posting.current ||
        params.toString() === last.current ||
        pending.current()
      )
        return;
      last.current = params.toString();
      params.set("intent", INTENT_VALUES.autosave);
      const basedOn = document.querySelector<HTMLInputElement>(`#${formId} input[name="${SAVE_FIELDS.basedOn}"]`);
      params.set(SAVE_FIELDS.basedOn, basedOn?.value ?? "");
      params.set(SAVE_FIELDS.writer, WRITER);
      params.set(SAVE_FIELDS.seq, nextSeq());
      fetcherRef.current.submit(params, { method: "post", action: `/intake-form/${step}` });
    };
    const timer = setInterval(() => saveNow.current(), AUTOSAVE_MS);
    return () => clearInterval(timer);
  }, [formId, step, savedAt]);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    const { savedTime: at, conflict } = fetcher.data;
    if (at) {
      failures.current = 0;
      setUnsaved(false);
      setLastSaved(at);
      return;
    }
    if (conflict || at === undefined) return;
    // Refused (the server could not save): not saved yet; send again after a wait (backoff: 5, 15, 30 s, then every minute).
    setUnsaved(true);
    last.current = null;
    const timer = setTimeout(() => saveNow.current(), backoff(failures.current++));
    return () => clearTimeout(timer);
  }, [fetcher.data, fetcher.state]);
  // A save of this step held by a dropped link (components/connection.tsx) is not saved yet either.
  const held = posts.some((d) => d.state === "failed" || d.state === "retrying");
  return {
    lastSaved,
    unsaved: unsaved || held,
    conflict: fetcher.state === "idle" ? fetcher.data?.conflict : undefined,
  };
}
