/**
 * The order of a step's saves. Every save carries what it was based on: the
 * draft's revision when the page was loaded (`basedOn`, in the page) and, with
 * JavaScript, the page's own writer id and a number that grows with each save
 * it sends (`writer`, `seq`). The server keeps the newest and never lets an
 * older save overwrite it:
 *  - based on the stored revision: apply;
 *  - the same page saved since (an autosave, then Next): apply if this save is
 *    newer than that page's last, else it is stale (an autosave landing late)
 *    and changes nothing;
 *  - anything else was saved elsewhere (another tab or device) since this page
 *    loaded: a conflict, shown to the customer instead of overwriting.
 */
export const SAVE_FIELDS = { basedOn: "basedOn", writer: "writer", seq: "seq" } as const;

/** What the step says when it was saved elsewhere since this page loaded. */
export const INTAKE_CONFLICT = {
  title: "This step was changed in another tab or on another device since you opened it.",
  lead: "Nothing was overwritten. Here is what differs; choose which answers to keep.",
} as const;

export type SaveStamp = { basedOn: number | null; writer: string | null; seq: number | null };
/** The stored draft's stamp fields (revision, writer, writer_seq), read from the draft as stored. */
type Stored = Record<string, unknown> | null;
const stampOf = (stored: Stored) => ({
  revision: typeof stored?.revision === "number" ? stored.revision : 0,
  writer: typeof stored?.writer === "string" ? stored.writer : null,
  seq: typeof stored?.writer_seq === "number" ? stored.writer_seq : null,
});
export type SaveOrder = "apply" | "stale" | "conflict";
/** A save refused because the step changed elsewhere: the stored revision and what differs, field by field. */
export type Conflict = { revision: number; fields: { field: string; saved: string; yours: string }[] };

const WRITER = /^[A-Za-z0-9_-]{8,40}$/;
const count = (value: FormDataEntryValue | null) => {
  const n = Number(value);
  return typeof value === "string" && value !== "" && Number.isSafeInteger(n) && n >= 0 ? n : null;
};

/** The stamp a post carries (anything malformed reads as absent). */
export function readSaveStamp(form: FormData): SaveStamp {
  const writer = form.get(SAVE_FIELDS.writer);
  return {
    basedOn: count(form.get(SAVE_FIELDS.basedOn)),
    writer: typeof writer === "string" && WRITER.test(writer) ? writer : null,
    seq: count(form.get(SAVE_FIELDS.seq)),
  };
}

export function saveOrder(draft: Stored, post: SaveStamp): SaveOrder {
  const { revision, writer, seq } = stampOf(draft);
  const sameWriter = post.writer !== null && writer === post.writer;
  if (sameWriter && post.seq !== null && seq !== null && post.seq <= seq) return "stale";
  // A post without a stamp (an old page, a hand-made post) is taken as it always was.
  if (post.basedOn === null || post.basedOn === revision || sameWriter) return "apply";
  return "conflict";
}

/** What a save applied with this stamp stores beside the step's fields. */
export function nextStamp(draft: Stored, post: SaveStamp) {
  return { revision: stampOf(draft).revision + 1, writer: post.writer, writer_seq: post.seq };
}

/** The fields of a step whose saved value differs from what this page sent. */
export function differences(saved: Record<string, unknown>, yours: Record<string, unknown>): Conflict["fields"] {
  const text = (v: unknown): string =>
    v === undefined || v === null
      ? ""
      : Array.isArray(v)
        ? v.map(text).filter(Boolean).join(", ")
        : typeof v === "object"
          ? Object.values(v as object)
              .map(text)
              .filter(Boolean)
              .join(" / ")
          : String(v);
  return Object.keys(yours)
    .filter((field) => text(saved[field]) !== text(yours[field]))
    .map((field) => ({ field, saved: text(saved[field]), yours: text(yours[field]) }));
}
