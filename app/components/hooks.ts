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
  return (
    navigation.state !== "idle" &&
    navigation.formMethod?.toUpperCase() === "POST" &&
    (formAction === undefined || navigation.formAction === formAction) &&
    (intent === undefined || navigation.formData?.get("intent") === intent)
  );
}
