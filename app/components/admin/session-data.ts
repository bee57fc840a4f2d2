import { useRouteLoaderData } from "@remix-run/react";
import type { KeptFields } from "~/domain/admin/session";

/** What the admin layout's loader (routes/admin.tsx) hands every admin page; undefined outside the admin area. */
export type AdminSessionData = { endsAt: number | null; serverNow: number; kept: KeptFields | null };

export const useAdminSession = () => useRouteLoaderData<AdminSessionData>("routes/admin");
