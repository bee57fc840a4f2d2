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
 * For a form that starts empty once a post succeeded and is kept as it is otherwise: its key, and the answer it
 * shows (`useActionData()`, passed in). Success is the action's redirect (routes answer a refusal with the form's
 * errors, and a success with a redirect), so the key changes once per redirect to this page: as its page starts
 * loading when that state is drawn, so nothing typed after it is thrown away, else when it has loaded. Meanwhile
 * the answer of an earlier refused press is not the form's any more. A refusal never changes the key: the form
 * keeps what it holds, with what was typed while the answer was on its way. (A location key changes after every
 * answer, refusals too, and remounting the form with what was sent lost that typing.)
 */
export function useFormKeptUntilRedirect<Answer>(answer: Answer): { key: number; lastResult: Answer | undefined } {
  const navigation = useNavigation();
  const location = useLocation();
  const [redirects, setRedirects] = useState({ count: 0, last: "" });
  const loading = navigation.state === "loading" && navigation.formData && isRedirect(navigation.location);
  const arriving = loading ? navigation.location : isRedirect(location) ? location : null;
  if (arriving && arriving.key !== redirects.last) setRedirects({ count: redirects.count + 1, last: arriving.key });
  return { key: redirects.count, lastResult: loading ? undefined : answer };
}
