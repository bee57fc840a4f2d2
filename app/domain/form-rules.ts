/**
 * A form's rules as the browser checks them, without a schema library: the server derives them
 * from the form's one Zod schema (`formRules` in server/form-rules.server.ts, messages and all),
 * the loader hands them to the page, and `checkForm` applies them before a post. The server
 * still parses every post with the schema itself; these rules only save a satellite round trip
 * for what a person can get wrong in one field (ARCHITECTURE rule 2).
 */

/** One field's rules, each with the message the schema gives for it (the spec's words). */
export type FieldRule = {
  /** Message when the field is empty (absent, or only spaces when the schema trims). */
  required?: string;
  /** The schema trims before it checks lengths. */
  trim?: true;
  /** Spaces only are no value (an optional box the schema reads as blank); other values are checked as typed. */
  blank?: true;
  minLength?: [number, string];
  maxLength?: [number, string];
  /** Regular expressions (source, flags) the value must match, each with its message. */
  patterns?: [string, string, string][];
  /** The value is a number: the message for one that is not (letters, or spaces only). */
  number?: string;
  /** The message for a number with a fraction, where the schema wants a whole one. */
  whole?: string;
  min?: [number, string];
  max?: [number, string];
};

export type FormRules = {
  /** By field name; `list[].name` stands for `list[0].name`, `list[1].name`, ... */
  fields: Record<string, FieldRule>;
  /** Fields a button (`intent` value) needs filled, with their messages; `""` is the form's own message. */
  intents?: Record<string, Record<string, string>>;
  /** Rows of a list editor (`list[0].key`) that need some boxes once others are filled. */
  rows?: RowRule[];
};

/**
 * In each row of `list`: once any box in `when` is filled, every box in `needs` must be (its message);
 * with `intents`, only for those buttons. ("A testimonial needs both the customer's name and what they said.")
 */
export type RowRule = { list: string; when: string[]; needs: Record<string, string>; intents?: string[] };

/** The errors of a form's data under its rules, by field name (`""` for the form), or null when it passes. */
export function checkForm(rules: FormRules, formData: FormData): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {};
  const names = [...new Set(formData.keys())];
  for (const [path, rule] of Object.entries(rules.fields)) {
    for (const name of namesOf(path, names)) {
      const message = checkValue(rule, formData.get(name));
      if (message) errors[name] = [message];
    }
  }
  const intent = formData.get("intent");
  const needs = typeof intent === "string" ? rules.intents?.[intent] : undefined;
  if (needs) {
    let missing = false;
    for (const [path, message] of Object.entries(needs)) {
      if (path === "") continue;
      // A box with rules of its own is empty as they say (a password keeps its spaces); any other, once trimmed.
      const trim = path in rules.fields ? rules.fields[path].trim || rules.fields[path].blank : true;
      for (const name of namesOf(path, names)) {
        if (!isEmpty(formData.get(name), trim)) continue;
        errors[name] ??= [message];
        missing = true;
      }
    }
    if (missing && needs[""]) errors[""] = [needs[""]];
  }
  for (const row of rules.rows ?? []) {
    if (row.intents && !row.intents.includes(String(intent))) continue;
    const numbered = new RegExp(`^${escape(row.list)}\\[(\\d+)\\]\\.`);
    const indexes = new Set(names.map((name) => numbered.exec(name)?.[1]).filter(Boolean));
    for (const i of indexes) {
      const box = (key: string) => formData.get(`${row.list}[${i}].${key}`);
      if (row.when.every((key) => isEmpty(box(key), true))) continue;
      for (const [key, message] of Object.entries(row.needs)) {
        if (isEmpty(box(key), true)) errors[`${row.list}[${i}].${key}`] ??= [message];
      }
    }
  }
  return Object.keys(errors).length ? errors : null;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The names a rule's path stands for: itself, or each numbered row of a list in the posted data. */
function namesOf(path: string, posted: string[]): string[] {
  if (!path.includes("[]")) return [path];
  const row = new RegExp(`^${escape(path).replace(/\\\[\\\]/g, "\\[\\d+\\]")}$`);
  return posted.filter((name) => row.test(name));
}

const isEmpty = (value: FormDataEntryValue | null, trim: boolean | undefined) =>
  value === null || (typeof value === "string" && (trim ? value.trim() : value) === "");

/** The first rule a value breaks, as its message (files are the server's to check). */
function checkValue(rule: FieldRule, raw: FormDataEntryValue | null): string | undefined {
  if (typeof raw !== "string" && raw !== null) return undefined;
  if (isEmpty(raw, rule.trim || rule.blank)) return rule.required;
  const value = rule.trim ? raw!.trim() : raw!;
  if (rule.minLength && value.length < rule.minLength[0]) return rule.minLength[1];
  if (rule.maxLength && value.length > rule.maxLength[0]) return rule.maxLength[1];
  for (const [source, flags, message] of rule.patterns ?? []) {
    if (!new RegExp(source, flags).test(value)) return message;
  }
  if (rule.number || rule.whole || rule.min || rule.max) {
    const number = value.trim() === "" ? NaN : Number(value);
    if (rule.number && !Number.isFinite(number)) return rule.number;
    if (rule.whole && !Number.isInteger(number)) return rule.whole;
    if (rule.min && !(number >= rule.min[0])) return rule.min[1];
    if (rule.max && !(number <= rule.max[0])) return rule.max[1];
  }
  return undefined;
}
