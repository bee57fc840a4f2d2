import mongoose, { type Model } from "mongoose";
import { encodeCursor, type Page, type PageCursor } from "~/domain/paging";

const trusted = mongoose.trusted;
const OBJECT_ID = /^[0-9a-f]{24}$/i;

/**
 * The rows after `cursor` in (field, _id) order, newest first (ARCHITECTURE.md rule 7):
 * a range on the indexed time field, ties broken by _id, sort + limit, no skip.
 * Each list declares an index on { [field]: -1, _id: -1 } (after its equality
 * fields) so MongoDB answers from it.
 */
export function afterCursor(
  filter: Record<string, unknown>,
  field: string,
  cursor: PageCursor | null,
  direction: Direction = "desc",
): Record<string, unknown> {
  if (!cursor) return filter;
  const past = direction === "desc" ? "$lt" : "$gt";
  const range = {
    $or: [{ [field]: trusted({ [past]: cursor.at }) }, { [field]: cursor.at, _id: trusted({ [past]: cursor.id }) }],
  };
  return allOf(filter, range);
}

/**
 * Every condition at once, as one flat filter: `$and` only for a field two of them name (two
 * `$or`s, say). FerretDB's PostgreSQL backend pushes down the equalities of a flat filter, and
 * scans when the same filter is wrapped in `$and` (docs/scaling.md).
 */
export function allOf(...conditions: Record<string, unknown>[]): Record<string, unknown> {
  const byField = new Map<string, unknown[]>();
  for (const condition of conditions)
    for (const [field, value] of Object.entries(condition)) byField.set(field, [...(byField.get(field) ?? []), value]);
  const flat: Record<string, unknown> = {};
  const and: Record<string, unknown>[] = [];
  for (const [field, values] of byField)
    if (values.length === 1) flat[field] = values[0];
    else and.push(...values.map((value) => ({ [field]: value })));
  return and.length ? { ...flat, $and: and } : flat;
}

export const newestFirst = (field: string) => ({ [field]: -1, _id: -1 }) as Record<string, -1>;

/** Newest first (every list), or soonest first (the orders list sorted by deadline). */
type Direction = "desc" | "asc";

/** A cursor whose id cannot be one of this collection's ids would fail the cast: it names no row, so it is the first page. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- only its schema is read
function usableCursor(model: Model<any>, cursor: PageCursor | null): PageCursor | null {
  if (!cursor) return null;
  return model.schema.path("_id")?.instance === "ObjectId" && !OBJECT_ID.test(cursor.id) ? null : cursor;
}

/**
 * One page of `model`'s documents matching `filter`, newest `field` first (or oldest first: direction "asc").
 * `pageSize` is a parameter so a test can walk a list with pages of 3.
 */
export async function keysetPage<D extends { _id: unknown }>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any model: the caller names its document type
  model: Model<any>,
  input: {
    filter?: Record<string, unknown>;
    field: string;
    cursor: PageCursor | null;
    pageSize: number;
    projection?: Record<string, 0 | 1>;
    direction?: Direction;
  },
): Promise<Page<D>> {
  const cursor = usableCursor(model, input.cursor);
  const direction = input.direction ?? "desc";
  const docs = await model
    .find(afterCursor(input.filter ?? {}, input.field, cursor, direction), input.projection)
    .sort(direction === "desc" ? newestFirst(input.field) : { [input.field]: 1, _id: 1 })
    .limit(input.pageSize + 1)
    .lean<D[]>();
  const rows = docs.slice(0, input.pageSize);
  const last = rows.at(-1) as Record<string, unknown> | undefined;
  const lastAt = last?.[input.field];
  return {
    rows,
    next:
      docs.length > input.pageSize && last && lastAt instanceof Date
        ? encodeCursor({ at: lastAt, id: String(last._id) })
        : null,
    first: !cursor,
    pageSize: input.pageSize,
  };
}
