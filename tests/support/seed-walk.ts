import { PUBLIC_PAGES } from "../../scripts/page-list.mjs";

/**
 * The seed walk (tests/integration/seed-pages.test.ts, and the restore drill in tests/fault/restore-drill.test.ts):
 * every page a visitor, a link holder, a customer and an admin open on the demo data `npm run seed` writes.
 */
/** The pages anyone may open. */
export const PUBLIC = [
  ...PUBLIC_PAGES,
  "/checkout?package=starter",
  "/checkout?package=starter&maintenance=1",
  "/order-success?session_id=cs_unknown",
  "/auth?tab=signup",
  "/auth/forgot-password",
  "/auth/reset-password?token=abcdefghijklmnopqrstuvwxyz",
  "/auth/verify?token=abcdefghijklmnopqrstuvwxyz",
  "/intake-form",
  "/maintenance/test-checkout?plan=essentials",
  "/maintenance/test-portal",
  "/showcase/unknown",
];

/** The pages behind an intake or order-status link. */
export const INTAKE = [
  "/intake-form",
  ...Array.from({ length: 14 }, (_, i) => `/intake-form/${i + 1}`),
  "/order-status",
];

/** The admin's pages, with each of these orders' own. */
export function adminPages(orderIds: string[]): string[] {
  return [
    "/admin",
    "/admin?status=paid",
    "/admin/coupons",
    "/admin/outbox",
    "/admin/payments",
    "/admin/privacy",
    "/admin/privacy?tab=audit",
    "/admin/privacy?tab=deletions",
    "/admin/orders.csv",
    "/dev/mail",
    ...orderIds.flatMap((id) => [
      `/admin/orders/${id}`,
      `/admin/orders/${id}?tab=edit-data`,
      `/admin/orders/${id}?tab=revision-1`,
      `/admin/privacy/delete/${id}`,
    ]),
  ];
}
