import { useRouteLoaderData } from "@remix-run/react";
import { useState } from "react";
import type { KeptFields } from "~/domain/admin/session";

/** The words of the session's sentence, warning and kept notice (domain/admin/session.ts), made on the server. */
export type AdminSessionWords = {
  endsAt: string | null;
  kept: string;
  title: string;
  warning: string;
  ended: string;
  stay: string;
};

/** What the admin layout's loader (routes/admin.tsx) hands every admin page; undefined outside the admin area. */
export type AdminSessionData = {
  endsAt: number | null;
  serverNow: number;
  kept: KeptFields | null;
  words: AdminSessionWords;
};

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
