import { PhotoDetailsSchema } from "../intake/schemas";
import * as z from "../zod";
import { EDIT_FIELDS, EDIT_MESSAGES, JSON_MAX, TEXT_MAX, TEXTAREA_MAX, type EditField } from "./edit-data";

/** The Edit Data tab's schema, parsed by the server (the browser checks the rules derived from it). */
const optionalText = (f: EditField, max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? v.trim() : null),
    z.nullable(z.string().check(z.maxLength(max, EDIT_MESSAGES.tooLong(f.label, max)))),
  );

/** A JSON field's text as posted: bounded here; whether it parses is `readJsonEdit`'s question. */
const jsonText = (f: EditField) =>
  z.preprocess(
    (v) => (typeof v === "string" ? v : ""),
    z.string().check(z.maxLength(JSON_MAX, EDIT_MESSAGES.tooLong(f.label, JSON_MAX))),
  );

function fieldSchema(f: EditField) {
  switch (f.kind) {
    case "text":
      return optionalText(f, TEXT_MAX);
    case "textarea":
      return optionalText(f, TEXTAREA_MAX);
    case "flag":
      return z.preprocess((v) => (v === "yes" ? true : v === "no" ? false : null), z.nullable(z.boolean()));
    case "list":
    case "object":
      return jsonText(f);
  }
}

/**
 * One schema for the whole tab. Text and flags are checked here (a text over its bound refuses the
 * save); JSON fields arrive as their text, and `readEdit` decides which of them are stored.
 */
export const EditDataSchema = z.object({
  ...Object.fromEntries(EDIT_FIELDS.map((f) => [f.name, fieldSchema(f)])),
  /** Each stored photo's details, by its id (the file itself is the customer's: never posted here). */
  photos: z.optional(z.array(z.partial(z.object(PhotoDetailsSchema), { altText: true }))),
});
