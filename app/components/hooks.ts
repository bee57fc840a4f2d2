import { useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";

/** False during the server render and the first client render; true once JavaScript is running. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * True while a form post is under way (submitting, or loading its redirect):
 * the one way pages show a pending state (the Epic Stack's useIsPending). Narrow
 * it to one form by `formAction` (the path posted to) and to one button by `intent`.
 */
export function useIsPending({ formAction, intent }: { formAction?: string; intent?: string } = {}) {
  const navigation = useNavigation();
  const pending = usePendingFormData();
  return (
    pending !== null &&
    (formAction === undefined || navigation.formAction === formAction) &&
    (intent === undefined || pending.get("intent") === intent)
  );
}

/** The form data of the post useIsPending reports (to tell which row's button was pressed), or null. */
export function usePendingFormData(): FormData | null {
  const navigation = useNavigation();
  const posting = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  return posting ? (navigation.formData ?? null) : null;
}

/** React Router marks the location a redirect leads to with `_isRedirect` in its state. */
const isRedirect = (location: { state: unknown }) =>
  (location.state as { _isRedirect?: boolean } | null)?._isRedirect === true;

/**
 * The key of a form that starts empty once a post of it succeeded and is kept as it is otherwise. Success is the
 * action's redirect (routes answer a refusal with the form's errors, and a success with a redirect), so the key
 * changes once per redirect to this page, when that page is drawn (until then the sent form stays locked:
 * components/connection.tsx). A refusal never changes it: the form keeps what it holds, with what was typed
 * while the answer was on its way. (A location's key changes after every answer, refusals too: a form keyed by
 * it was drawn again with what had been sent, and what was typed meanwhile was lost.)
 */
export function useFormKeyPerRedirect(): string {
  const location = useLocation();
  const [key, setKey] = useState(location.key);
  if (isRedirect(location) && location.key !== key) setKey(location.key);
  return key;
}
