/**
 * List items addressed by their own id: each item of a list editor
 * (a service, a keyword, a staff member…) has an id the server gave it, stored
 * beside the list (`list_ids`, one array per list, in the list's order) and
 * rendered into the form as `listIds.<field>[<row>]`. A Remove names its item by
 * that id, so two quick Removes, or one posted from a page that is out of date,
 * act on the items they name and never on whatever sits at that position now.
 *
 * The lists themselves stay lists of text and rows as the spec and every reader
 * (privacy, AI prompt, admin, export) know them; the ids are only how a page
 * addresses an item.
 */

/** The list editors' fields whose items have ids: rows of several boxes, or texts. */
export const ID_LISTS = {
  servicesList: "rows",
  testimonials: "rows",
  reviewLinks: "rows",
  staffBios: "rows",
  brandColors: "texts",
  targetKeywords: "texts",
  competitorUrls: "texts",
  keyPoints: "texts",
  videoUrls: "texts",
} as const;
export type IdListField = keyof typeof ID_LISTS;
export const isIdList = (field: string): field is IdListField => Object.hasOwn(ID_LISTS, field);

/** The boxes that make a row of each list editor "typed in" (a rating or a select with a default does not): schemas.ts keeps rows by them. */
export const ROW_CONTENT = {
  servicesList: ["name", "description", "prominent", "showPricing", "price"],
  testimonials: ["author", "text"],
  reviewLinks: ["platform", "url"],
  staffBios: ["name", "role", "bio", "headshotUrl"],
} as const;

/** Every list's ids (or its removed items' ids), by the form's field name. */
export type ListIds = Partial<Record<IdListField, string[]>>;

/** The posted name of an item's id. */
export const LIST_IDS = "listIds";
export const itemIdName = (field: IdListField, row: number) => `${LIST_IDS}.${field}[${row}]`;

/** An item id as the server makes them (servers' ids only: anything else posted is ignored). */
export const ITEM_ID = /^[a-z0-9]{12}$/;

const rowOf = (field: string) => new RegExp(`^${field}\\[(\\d{1,3})\\](.*)$`);
const idRowOf = (field: string) => new RegExp(`^${LIST_IDS}\\.${field}\\[(\\d{1,3})\\]$`);

/** Each posted row of a list (by its number in the post): whether anything is typed in it, and its id. */
function postedRows(form: FormData, field: IdListField): Map<number, { typed: boolean; id: string | null }> {
  const rows = new Map<number, { typed: boolean; id: string | null }>();
  const at = (n: number) => rows.get(n) ?? rows.set(n, { typed: false, id: null }).get(n)!;
  const content = ID_LISTS[field] === "rows" ? ROW_CONTENT[field as keyof typeof ROW_CONTENT] : null;
  const row = rowOf(field);
  const idRow = idRowOf(field);
  for (const [name, value] of form) {
    if (typeof value !== "string") continue;
    const id = idRow.exec(name);
    if (id) {
      if (ITEM_ID.test(value)) at(Number(id[1])).id = value;
      continue;
    }
    const item = row.exec(name);
    if (!item) continue;
    // The schema's rule for a kept item: a text not blank; a row with one of its content boxes not blank.
    const key = item[2].replace(/^\./, "");
    const counts = content ? (content as readonly string[]).includes(key) : key === "";
    if (counts && value.trim() !== "") at(Number(item[1])).typed = true;
    else at(Number(item[1]));
  }
  return rows;
}

/** The post without the item whose id is `id` (the rows after it numbered one less); the same post when it is not there. */
export function withoutPostedItem(form: FormData, field: IdListField, id: string): FormData {
  const rows = postedRows(form, field);
  const removed = [...rows].find(([, r]) => r.id === id)?.[0];
  if (removed === undefined) return form; // already gone: nothing to remove
  const out = new FormData();
  const row = rowOf(field);
  const idRow = idRowOf(field);
  for (const [name, value] of form) {
    const match = row.exec(name) ?? idRow.exec(name);
    if (!match) {
      out.append(name, value);
      continue;
    }
    const n = Number(match[1]);
    if (n === removed) continue;
    out.append(n > removed ? name.replace(`${field}[${n}]`, `${field}[${n - 1}]`) : name, value);
  }
  return out;
}

/**
 * The ids of a list as it will be stored, in the order of the parsed list: each
 * kept row keeps the id it was posted with when that id is one the server gave
 * this list (`known`), else gets a new one. A row posted with an id a Remove has
 * taken out (`removed`: a page that had not heard of that Remove yet) is left
 * out: `gone` names its place in the parsed list, so a removed item never comes back.
 */
export function postedIds(
  form: FormData,
  field: IdListField,
  known: readonly string[],
  removed: readonly string[],
  newId: () => string,
): { ids: string[]; gone: Set<number> } {
  const kept = [...postedRows(form, field)].filter(([, r]) => r.typed).sort(([a], [b]) => a - b);
  const ids: string[] = [];
  const gone = new Set<number>();
  const used = new Set<string>();
  kept.forEach(([, r], i) => {
    if (r.id && removed.includes(r.id)) return void gone.add(i);
    if (r.id && known.includes(r.id) && !used.has(r.id)) {
      used.add(r.id);
      ids.push(r.id);
    } else ids.push(newId());
  });
  return { ids, gone };
}

/**
 * The list a post added an item to (a typed row without an id), if any: without JavaScript, the page
 * after Add or Enter puts focus back in that list's add box (WCAG 2.4.3), as the page with scripts does.
 */
export function addedList(form: FormData, fields: readonly string[]): IdListField | null {
  for (const field of fields.filter(isIdList))
    for (const row of postedRows(form, field).values()) if (row.typed && !row.id) return field;
  return null;
}

/** The query parameter that names it on the page the post redirects to. */
export const ADDED_PARAM = "added";

/** How many removed ids each list remembers (enough for any page still open). */
export const REMEMBER_REMOVED = 50;

/** A short stable text hash (FNV-1a), base 36: ids for items stored before lists had ids. */
function hashId(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    a = Math.imul(a ^ text.charCodeAt(i), 0x01000193) >>> 0;
    b = Math.imul(b ^ text.charCodeAt(i), 0x5bd1e995) >>> 0;
  }
  return (a.toString(36) + b.toString(36)).padStart(12, "0").slice(-12);
}

/**
 * The ids of a stored list: as stored, or, for a list saved without them (or
 * changed since by hand, so they no longer match its length), made from each
 * item and its place, the same on every read until the next save stores new ones.
 */
export function storedIds(field: IdListField, items: unknown, ids: unknown): string[] {
  const list = Array.isArray(items) ? items : [];
  if (Array.isArray(ids) && ids.length === list.length && ids.every((id) => typeof id === "string" && ITEM_ID.test(id)))
    return ids as string[];
  return list.map((item, i) => hashId(`${field}:${i}:${JSON.stringify(item)}`));
}
