import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { formatTime } from "~/domain/dates";
import { INTENT_VALUES } from "~/domain/intake/intents";

/** Spec: the open step is saved every 30 seconds. */
export const AUTOSAVE_MS = 30_000;

/**
 * With JavaScript: saves the step every 30 s while it is open, only when
 * something changed since the last save, never two at once. Failures are only
 * logged (spec). Returns the time of the last save.
 */
export function useAutosave(formId: string, step: number, savedAt: string | null) {
  const fetcher = useFetcher<{ savedAt?: string | null }>();
  // A ref, so re-renders never restart the timer or move the baseline past unsaved edits.
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const last = useRef<string | null>(null);
  const [lastSaved, setLastSaved] = useState<string | null>(null);
  useEffect(() => {
    const serialize = () => {
      const el = document.getElementById(formId) as HTMLFormElement | null;
      if (!el) return null;
      const params = new URLSearchParams();
      // Empty boxes are not content: conditional fields appearing or vanishing must not count as a change.
      for (const [k, v] of new FormData(el))
        if (typeof v === "string" && v !== "" && k !== "intent") params.append(k, v);
      return params;
    };
    last.current = serialize()?.toString() ?? null;
    const timer = setInterval(() => {
      const params = serialize();
      if (!params || fetcherRef.current.state !== "idle" || params.toString() === last.current) return;
      last.current = params.toString();
      params.set("intent", INTENT_VALUES.autosave);
      fetcherRef.current.submit(params, { method: "post", action: `/intake-form/${step}` });
    }, AUTOSAVE_MS);
    return () => clearInterval(timer);
  }, [formId, step, savedAt]);
  useEffect(() => {
    const at = fetcher.data?.savedAt;
    if (at) setLastSaved(formatTime(at));
    else if (fetcher.state === "idle" && fetcher.data) console.warn("Autosave failed");
  }, [fetcher.data, fetcher.state]);
  return lastSaved;
}
