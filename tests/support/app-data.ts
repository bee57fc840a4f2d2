import { afterAll } from "vitest";
import { connectDb, disconnectDb } from "~/server/db.server";
import { Coupon } from "~/server/models/index.server";

/**
 * Browser tests arrange data in the test app's own database (what an admin or
 * an earlier visit would have left there), through the app's models.
 */
export function useAppDatabase() {
  afterAll(() => disconnectDb());
  return {
    async coupon(fields: { code: string; discount_type: "percentage" | "fixed"; discount_value: number; max_uses?: number }) {
      await connectDb();
      await Coupon.create(fields);
      return fields.code;
    },
  };
}
