import { useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/** How to find a control again after the page re-renders (a form keyed by its save may be a new element). */
type Control = { id: string; name: string | null; value: string | null; index: number };

/** The controls of the page with this name (and, for a button, this value), in document order. */
const alike = (name: string, value: string | null) =>
  [...document.querySelectorAll<HTMLElement>(`main [name="${CSS.escape(name)}"]`)].filter(
    (el) => value === null || (el as HTMLButtonElement).value === value,
  );

function describe(el: Element | null): Control | null {
  if (!(el instanceof HTMLElement) || el === document.body) return null;
  const name = el.getAttribute("name");
  const value = el instanceof HTMLButtonElement ? el.value : null;
  return { id: el.id, name, value, index: name ? alike(name, value).indexOf(el) : -1 };
}

function find(control: Control): HTMLElement | null {
  const byId = control.id ? document.getElementById(control.id) : null;
  if (byId || !control.name) return byId;
  const named = alike(control.name, control.value);
  return named[control.index] ?? named[0] ?? null;
}

/** Focus an element that may not take focus by itself (a heading, the alert), without a ring for the mouse. */
function focusOn(el: HTMLElement) {
  if (!el.matches("a[href], button, input, select, textarea, summary, [tabindex]")) el.tabIndex = -1;
  el.focus();
}

/**
 * Where focus goes when a client-side navigation or post finishes (WCAG 2.4.3), for every page:
 * - another page: its heading (the h1), as a page load would start there;
 * - the same page (an in-place post, a filter, a list editor's Add): if focus was lost (the control
 *   was disabled while sending, or the form re-rendered), the form's alert when the post was refused,
 *   else the control that was used, found again by its id or name, else the heading.
 * The control in use is read at the submit or click, before a pending state can disable it.
 */
export function useFocusAfterNavigation() {
  const navigation = useNavigation();
  const location = useLocation();
  const used = useRef<Control | null>(null);
  const from = useRef(location.pathname);
  const busy = useRef(false);

  useEffect(() => {
    const remember = () => (used.current = describe(document.activeElement));
    document.addEventListener("submit", remember, true);
    document.addEventListener("click", remember, true);
    return () => {
      document.removeEventListener("submit", remember, true);
      document.removeEventListener("click", remember, true);
    };
  }, []);

  useEffect(() => {
    if (navigation.state !== "idle") {
      busy.current = true;
      return;
    }
    if (!busy.current) return;
    busy.current = false;
    const samePage = from.current === location.pathname;
    from.current = location.pathname;
    const heading = document.querySelector<HTMLElement>("main h1");
    if (!samePage) {
      if (heading) focusOn(heading);
      return;
    }
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return; // focus is where the person left it
    const alert = document.querySelector<HTMLElement>("main [role=alert].form-alert");
    const target = alert ?? (used.current && find(used.current)) ?? heading;
    if (target) focusOn(target);
  }, [navigation.state, location]);
}
