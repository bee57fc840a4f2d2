import { useEffect, useRef } from "react";
import { usePendingFormData } from "./hooks";

type Typed = Map<string, string | boolean>;
const entryKey = (el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement) =>
  el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")
    ? `${el.name}=${el.value}`
    : el.name;

/** Sets a control's value the way typing does, so React and Conform see the change. */
export function put(el: Element, value: string | boolean) {
  if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) {
    if (el.checked !== value) el.click();
    return;
  }
  const proto = Object.getPrototypeOf(el) as object;
  const setter = Object.getOwnPropertyDescriptor(proto, "value")?.set;
  if (!setter || (el as HTMLInputElement).value === value) return;
  setter.call(el, value);
  el.dispatchEvent(new Event("input", { bubbles: true }));
}

/**
 * Typing made while a form's post is in flight survives its answer. A post that
 * answers by showing the page again (Add, Remove, Enter in a list) re-renders
 * the form from what the server saved, which is what was sent, not what was
 * typed meanwhile: this records every change made after the post left and puts
 * it back into the new form (`version` changes when it is re-rendered), where
 * the next save sends it. `rename` maps a field's name across the answer (a
 * removed list row shifts the rows after it up; null drops the field).
 *
 * While the post is in flight a second one from the same form is not sent (a
 * double click). A press of a button that `queue` accepts (a list item's
 * Remove, which names its item by id) waits instead, and is pressed again in
 * the form shown by the answer, if its button is still there: two quick
 * Removes remove both items, each from the list as the server has it.
 * `rename` gets the button pressed and its `data-row` (the row a Remove was on).
 */
export function useKeepTyping(
  formId: string,
  version: unknown,
  rename?: (name: string, submitter: string | null, row: number | null) => string | null,
  queue?: (submitter: string) => boolean,
) {
  const pending = usePendingFormData();
  const busy = useRef(false);
  busy.current = pending !== null;
  const typed = useRef<Typed | null>(null);
  const submitter = useRef<{ value: string | null; row: number | null }>({ value: null, row: null });
  const queued = useRef<string[]>([]);
  const renameRef = useRef(rename);
  renameRef.current = rename;
  const queueRef = useRef(queue);
  queueRef.current = queue;

  useEffect(() => {
    const mine = (target: EventTarget | null) =>
      target instanceof Element && (target as HTMLInputElement).form?.id === formId;
    const onSubmit = (event: SubmitEvent) => {
      if (!(event.target instanceof HTMLFormElement) || event.target.id !== formId) return;
      const button = event.submitter as HTMLButtonElement | null;
      if (busy.current) {
        event.preventDefault();
        event.stopImmediatePropagation();
        if (button?.value && queueRef.current?.(button.value) && !queued.current.includes(button.value))
          queued.current.push(button.value);
        return;
      }
      typed.current = new Map();
      const row = Number(button?.dataset.row ?? NaN);
      submitter.current = { value: button?.value ?? null, row: Number.isInteger(row) ? row : null };
    };
    const onInput = (event: Event) => {
      const el = event.target as HTMLInputElement;
      if (!typed.current || !mine(el) || !el.name || el.type === "file") return;
      typed.current.set(entryKey(el), el.type === "checkbox" || el.type === "radio" ? el.checked : el.value);
    };
    window.addEventListener("submit", onSubmit, true);
    document.addEventListener("input", onInput, true);
    document.addEventListener("change", onInput, true);
    return () => {
      window.removeEventListener("submit", onSubmit, true);
      document.removeEventListener("input", onInput, true);
      document.removeEventListener("change", onInput, true);
    };
  }, [formId]);

  // The form was rendered again from the answer: put back what was typed while the post was out,
  // then press the button that waited (if its item is still there).
  useEffect(() => {
    const changes = typed.current;
    typed.current = null;
    const form = document.getElementById(formId) as HTMLFormElement | null;
    if (!form) return;
    for (const [key, value] of changes ?? []) {
      const [name, choice] = key.split("=");
      const { value: pressed, row } = submitter.current;
      const target = renameRef.current ? renameRef.current(name, pressed, row) : name;
      if (target === null) continue;
      const controls = [...form.elements].filter((el) => (el as HTMLInputElement).name === target);
      const el = choice === undefined ? controls[0] : controls.find((c) => (c as HTMLInputElement).value === choice);
      if (el) put(el, value);
    }
    while (queued.current.length) {
      const next = queued.current.shift()!;
      const button = [...form.elements].find(
        (el): el is HTMLButtonElement => el instanceof HTMLButtonElement && el.value === next,
      );
      if (button) return form.requestSubmit(button);
    }
  }, [formId, version]);
}
