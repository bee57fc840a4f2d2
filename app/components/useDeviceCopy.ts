import { useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { usePendingFormData } from "./hooks";
import { put } from "./useKeepTyping";

/** A copy on the device lapses after this long (and is removed once the server has what it holds). */
export const DEVICE_COPY_DAYS = 7;
export const RESTORED_MESSAGE = "We put back what you typed on this device earlier. It isn't saved yet.";
const PREFIX = "copy:";
const LAPSE_MS = DEVICE_COPY_DAYS * 86_400_000;

/** `base`: what the saved form was when this was typed (the caller's words: the intake's revision and writer). */
type Copy = { at: number; entries: [string, string][]; base?: string };

/** A copy not put back: what it holds, and each field it would change (its text beside the form's). */
export type HeldCopy = { entries: [string, string][]; fields: { field: string; saved: string; yours: string }[] };

/** Entries by field (a list's rows and a choice's ticks under their list's name), each field's texts joined. */
function byField(entries: [string, string][]) {
  const out = new Map<string, string[]>();
  for (const [entry, value] of entries) {
    const [name, choice] = entry.split("=");
    const field = name.split(/[[.]/)[0];
    out.set(field, [...(out.get(field) ?? []), choice ?? value]);
  }
  return out;
}

/** The fields a copy would change, beside what the form shows now. */
function changes(form: HTMLFormElement, entries: [string, string][]): HeldCopy["fields"] {
  const shown = byField(typedEntries(form));
  return [...byField(entries)]
    .map(([field, yours]) => ({ field, saved: (shown.get(field) ?? []).join(", "), yours: yours.join(", ") }))
    .filter((f) => f.saved !== f.yours);
}

/** What a person typed: text and choices, never a password, a file or a hidden field. */
function typedEntries(form: HTMLFormElement): [string, string][] {
  const entries: [string, string][] = [];
  for (const el of form.elements) {
    const input = el as HTMLInputElement;
    if (!input.name || input.disabled || /password/i.test(input.name)) continue;
    if (["password", "file", "hidden", "submit", "button"].includes(input.type)) continue;
    if ((input.type === "checkbox" || input.type === "radio") && !input.checked) continue;
    if (input.type === "checkbox" || input.type === "radio") entries.push([`${input.name}=${input.value}`, "on"]);
    else if (input.value !== "") entries.push([input.name, input.value]);
  }
  return entries;
}

function read(key: string): Copy | null {
  try {
    const copy = JSON.parse(localStorage.getItem(PREFIX + key) ?? "null") as Copy | null;
    return copy && Date.now() - copy.at < LAPSE_MS ? copy : null;
  } catch {
    return null;
  }
}

/** Removes a copy the server has had by another way (a form sent in another tab). */
export function forgetDeviceCopy(key: string) {
  try {
    localStorage.removeItem(PREFIX + key);
  } catch {
    // Storage refused: nothing is kept.
  }
}

/** Removes every copy past its lapse (any key of ours). */
function pruneLapsed() {
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const name = localStorage.key(i);
    if (name?.startsWith(PREFIX) && !read(name.slice(PREFIX.length))) localStorage.removeItem(name);
  }
}

/** Puts a copy's entries into the form's boxes (as if typed). */
export function putBack(form: HTMLFormElement, entries: [string, string][]) {
  for (const [entry, value] of entries) {
    const [name, choice] = entry.split("=");
    const el = [...form.elements].find(
      (c) =>
        (c as HTMLInputElement).name === name && (choice === undefined || (c as HTMLInputElement).value === choice),
    );
    if (el) put(el, choice === undefined ? value : true);
  }
}

/**
 * Keeps what is typed into a form in this browser (localStorage, under `key`:
 * per order and step for the intake) until the server has it, so a reload, a
 * closed tab or a crash before then loses nothing. Restored when the form is
 * shown with values that differ from the copy; removed when the form's post
 * succeeds (a redirect) or the form already shows what the copy holds; lapses
 * after 7 days. Returns `restored` when something was put back.
 *
 * `saved` (the intake) names what the saved form is now (`base`, kept in each copy) and tells whether a
 * copy's base is still current: a copy typed before someone else saved the form is older than what is saved,
 * and is never put back silently: it is returned as `held`, for the page to show what differs
 * and let the person choose (`putBack`).
 */
export function useDeviceCopy(
  formId: string,
  key: string | null,
  version?: unknown,
  saved?: { base: string; isCurrent: (base: string) => boolean },
) {
  const [restored, setRestored] = useState(false);
  const [held, setHeld] = useState<HeldCopy | null>(null);
  const savedRef = useRef(saved);
  savedRef.current = saved;
  const actionData = useActionData();
  const navigation = useNavigation();

  // A post of this form that answered with a redirect: the server has it (first, so a form
  // shown afresh after its post succeeded is not filled again from the copy).
  // Several forms on one page post to one path (a feedback form per order): theirs say which they are.
  const pending = usePendingFormData();
  const postedId = pending?.get("formId");
  const mine = pending !== null && (typeof postedId !== "string" || postedId === formId);
  const postedKey = useRef<string | null>(null);
  /** The copy written half a second after the last keystroke (cancelled when the page is left with the form sent). */
  const writing = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    if (mine) {
      const form = document.getElementById(formId) as HTMLFormElement | null;
      if (form && navigation.formAction && samePath(form.action, navigation.formAction)) postedKey.current = key;
    } else if (postedKey.current) {
      if (actionData === undefined) localStorage.removeItem(PREFIX + postedKey.current);
      postedKey.current = null;
    }
  }, [mine, key, actionData, formId, navigation.formAction]);
  // A redirect to another page (an intake step's Next: another route, so this form is gone before the post's
  // navigation ends) is seen in the router's own states, each of them: React may draw only the last (a
  // transition on a busy machine), and this form is then gone before its effects ever saw the page leaving.
  useEffect(() => {
    if (!key) return;
    return window.__remixRouter?.subscribe(({ navigation: nav }) => {
      const form = document.getElementById(formId) as HTMLFormElement | null;
      const id = nav.formData?.get("formId");
      if (nav.state !== "loading" || nav.formMethod?.toUpperCase() !== "POST" || !nav.formAction || !form) return;
      if ((typeof id === "string" && id !== formId) || !samePath(form.action, nav.formAction)) return;
      if (!nav.location || nav.location.pathname === window.location.pathname) return;
      clearTimeout(writing.current); // a write still to come would bring the copy back
      localStorage.removeItem(PREFIX + key);
    });
  }, [formId, key]);

  // Shown (again): restore what the server does not have yet, or drop a copy it already has.
  useEffect(() => {
    setHeld(null);
    if (!key) return;
    try {
      pruneLapsed();
      const copy = read(key);
      const form = document.getElementById(formId) as HTMLFormElement | null;
      if (!copy || !form) return;
      const shown = new Map(typedEntries(form));
      const missing = copy.entries.filter(([name, value]) => shown.get(name) !== value);
      if (!missing.length) return localStorage.removeItem(PREFIX + key);
      const current = savedRef.current;
      if (current && copy.base !== undefined && !current.isCurrent(copy.base)) {
        const fields = changes(form, copy.entries);
        return fields.length ? setHeld({ entries: copy.entries, fields }) : localStorage.removeItem(PREFIX + key);
      }
      putBack(form, missing);
      setRestored(true);
    } catch {
      // Storage refused (private mode, full): the page works as before.
    }
  }, [formId, key, version]);

  // Typing: keep a copy, written at most every half second.
  useEffect(() => {
    if (!key) return;
    const onInput = (event: Event) => {
      const form = (event.target as HTMLInputElement).form;
      if (form?.id !== formId) return;
      clearTimeout(writing.current);
      writing.current = setTimeout(() => {
        try {
          const copy: Copy = { at: Date.now(), entries: typedEntries(form), base: savedRef.current?.base };
          localStorage.setItem(PREFIX + key, JSON.stringify(copy));
        } catch {
          // Storage refused: nothing to keep.
        }
      }, 500);
    };
    document.addEventListener("input", onInput, true);
    document.addEventListener("change", onInput, true);
    return () => {
      clearTimeout(writing.current);
      document.removeEventListener("input", onInput, true);
      document.removeEventListener("change", onInput, true);
    };
  }, [formId, key]);

  return { restored, held, dismiss: () => setHeld(null) };
}

const samePath = (a: string, b: string) =>
  new URL(a, window.location.href).pathname === new URL(b, window.location.href).pathname;

declare global {
  interface Window {
    /** The Remix router (RemixBrowser sets it): its state changes, each one, before React draws any. */
    __remixRouter?: { state: RouterState; subscribe(listener: (state: RouterState) => void): () => void };
  }
}
type RouterState = {
  navigation: {
    state: string;
    formMethod?: string;
    formAction?: string;
    formData?: FormData;
    location?: { pathname: string };
  };
};
