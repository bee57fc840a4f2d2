import * as z from "../zod";
import { CLOCK_FILTERS, DATE_FILTERS, ORDER_SORTS } from "./order-filters";
import { ORDER_STATUSES } from "../order-status";

/** A query-string filter: empty is absent, and a value that does not fit is dropped, never an error. */
const dropInvalid = <T extends z.core.SomeType>(schema: T) =>
  z.catch(z.optional(z.preprocess(z.emptyAsAbsent, schema)), undefined);

/**
 * The filters of /admin, from the query string (or the bulk form's hidden copy of it). Unknown values are dropped, never an error.
 * The page's keyset cursor (`?before=`) is read apart from them, by app/domain/paging.ts, like every admin list's.
 */
export const OrderFiltersSchema = z.object({
  q: dropInvalid(z.string().check(z.trim(), z.toLowerCase(), z.maxLength(100))),
  status: dropInvalid(z.enum(ORDER_STATUSES)),
  date: dropInvalid(z.enum(DATE_FILTERS)),
  clock: dropInvalid(z.enum(CLOCK_FILTERS)),
  sort: dropInvalid(z.enum(ORDER_SORTS)),
});
export type OrderFilters = z.infer<typeof OrderFiltersSchema>;

export function parseOrderFilters(params: URLSearchParams): OrderFilters {
  return OrderFiltersSchema.parse({
    q: params.get("q") ?? undefined,
    status: params.get("status") ?? undefined,
    date: params.get("date") ?? undefined,
    clock: params.get("clock") ?? undefined,
    sort: params.get("sort") ?? undefined,
  });
}
