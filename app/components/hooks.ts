import { useNavigation } from "@remix-run/react";
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
