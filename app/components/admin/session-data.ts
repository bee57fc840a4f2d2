import { useRouteLoaderData } from "@remix-run/react";
import { useState } from "react";
import type { KeptFields } from "~/domain/admin/session";

/** What the admin layout's loader (routes/admin.tsx) hands every admin page; undefined outside the admin area. */
export type AdminSessionData = { endsAt: number | null; serverNow: number; kept: KeptFields | null };

export const useAdminSession = () => useRouteLoaderData<AdminSessionData>("routes/admin");

/**
 * The fields of a post kept when the admin session ended, for the form that posts `intent` (none: no form takes
 * it). Read once, as the form is made: the layout gives a kept post once, and a later reload of its data has none.
 */
export function useKeptPost(intent: string | undefined): Record<string, string> | null {
  const session = useAdminSession();
  const [kept] = useState(() => (intent && session?.kept?.intent === intent ? session.kept.values : null));
  return kept;
}
