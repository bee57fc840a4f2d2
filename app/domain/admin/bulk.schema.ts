import * as z from "../zod";
import { BULK_KEEP_MAX, BULK_MAX, isBulkAction, type BulkAction } from "./bulk";

/** The bulk form and the selection kept in its return address, read by the server (its own module, so Zod stays out of the page). */

const OrderId = z.uuid();

/** The bulk form: the action, the ticked orders or "all matching the filters". Checked by the server whatever the browser sent. */
export const BulkSchema = z.object({
  action: z.preprocess(z.emptyAsAbsent, z.optional(z.string())),
  orderIds: z.catch(
    z.preprocess(
      (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
      z.array(OrderId).check(z.maxLength(BULK_MAX)),
    ),
    [],
  ),
  all: z.preprocess((v) => v === "on", z.boolean()),
});

export function keptBulk(params: URLSearchParams): { action: BulkAction | null; selected: string[]; all: boolean } {
  const action = params.get("bulk");
  return {
    action: isBulkAction(action) ? action : null,
    selected: params
      .getAll("selected")
      .filter((id) => OrderId.safeParse(id).success)
      .slice(0, BULK_KEEP_MAX),
    all: params.get("all") === "on",
  };
}
