import { ORDER_NOT_FOUND } from "./order-detail";

/** What the admin's Confirm Data Deletion page says. */
export const DELETION_MESSAGES = {
  deleted: {
    title: "Data Deleted",
    description: "The customer's personal data was permanently deleted; the order's financial record was kept.",
  },
  failed: "Failed to delete data",
  notFound: ORDER_NOT_FOUND,
} as const;
