import { parseWithZod } from "@conform-to/zod/v4";
import type { FieldRule, FormRules, RowRule } from "~/domain/form-rules";
import * as z from "~/domain/zod";

/**
 * The rules of a form as the browser checks them (domain/form-rules.ts), derived from the form's
 * one Zod schema, so that Zod and the schemas stay on the server and the page ships a few lines
 * of checking instead. The shape of the rules (which field is required, how
 * long, what pattern) is read from the schema's definition, as Conform's `getZodConstraint`
 * does; every message is found by parsing a value that breaks exactly that rule with the same
 * `parseWithZod` the action uses, so the browser shows the very words the server would.
 * What a single field cannot show (a rule across fields, a refinement) stays with the server,
 * except "this button needs these fields": the form parsed empty with each `intent` value.
 * Derived once per schema.
 */
/**
 * Routes parse posts with this `parseWithZod`, never by importing `@conform-to/zod` themselves: the
 * browser build keeps a package a route imports even when only the action used it, and with it all
 * of Zod; a `.server` module is left out of the browser build whole.
 */
export { parseWithZod };

export function formRules(schema: z.ZodMiniType, options: { omit?: string[] } = {}): FormRules {
  const cached = cache.get(schema);
  if (cached) return cached;
  const omit = new Set(["intent", ...(options.omit ?? [])]);
  const fields: Record<string, FieldRule> = {};
  const shape = objectShape(schema);
  for (const [key, field] of Object.entries(shape ?? {})) {
    if (omit.has(key)) continue;
    const element = arrayElement(field);
    const rowShape = element ? objectShape(element) : undefined;
    if (rowShape) {
      for (const [sub, subField] of Object.entries(rowShape)) {
        const rule = fieldRule(subField);
        if (rule) fields[`${key}[].${sub}`] = rule;
      }
    } else if (!element) {
      const rule = fieldRule(field);
      if (rule) fields[key] = rule;
    }
  }
  const rows = rowRules(schema, shape ?? {});
  const rules: FormRules = rows.length ? { fields, rows } : { fields };
  const intents = shape?.intent ? intentValues(shape.intent) : [];
  for (const intent of intents) {
    const form = new FormData();
    form.set("intent", intent);
    const error = errorsOf(parseWithZod(form, { schema }));
    const needs = Object.fromEntries(
      Object.entries(error ?? {})
        .filter(([name, messages]) => name !== "intent" && messages?.length)
        .map(([name, messages]) => [name, messages![0]]),
    );
    if (Object.keys(needs).length) (rules.intents ??= {})[intent] = needs;
  }
  cache.set(schema, rules);
  return rules;
}

const cache = new WeakMap<z.ZodMiniType, FormRules>();

/*
 * Zod's definitions (`_zod.def`) are not its public API: package.json pins zod to one version, and
 * tests/unit/form-rules-parity.test.ts checks every schema's rules against the schema itself on an upgrade.
 */

type Def = {
  type: string;
  shape?: Record<string, z.ZodMiniType>;
  innerType?: z.ZodMiniType;
  in?: z.ZodMiniType;
  out?: z.ZodMiniType;
  element?: z.ZodMiniType;
  entries?: Record<string, string>;
  values?: unknown[];
  checks?: { _zod: { def: { check: string; minimum?: number; maximum?: number } } }[];
};
const defOf = (schema: z.ZodMiniType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schemas a field's value passes through: wrappers and pipes unwrapped (a transform's side skipped). */
function layers(schema: z.ZodMiniType): z.ZodMiniType[] {
  const def = defOf(schema);
  if (def.innerType) return [schema, ...layers(def.innerType)];
  if (def.type === "pipe")
    return [...(defOf(def.in!).type === "transform" ? [] : layers(def.in!)), ...layers(def.out!)];
  return [schema];
}

function objectShape(schema: z.ZodMiniType): Record<string, z.ZodMiniType> | undefined {
  return layers(schema)
    .map(defOf)
    .find((d) => d.type === "object")?.shape;
}

function arrayElement(schema: z.ZodMiniType): z.ZodMiniType | undefined {
  return layers(schema)
    .map(defOf)
    .find((d) => d.type === "array")?.element;
}

function intentValues(schema: z.ZodMiniType): string[] {
  const def = layers(schema)
    .map(defOf)
    .find((d) => d.type === "enum" || d.type === "literal");
  if (!def) return [];
  return (def.type === "enum" ? Object.values(def.entries ?? {}) : (def.values ?? [])).map(String);
}

/** Values tried, in turn, as a box a person filled in: the first its own rules take stands for it. */
const FILLED = ["on", "5", "x", "https://example.com", "000000000000000000000000"];

/**
 * What each row of a list editor needs once something is typed in it (a rule across the row's boxes,
 * written as a refinement the schema's shape does not show): found by posting one row with one box
 * filled and reading the messages the schema gives its other boxes.
 */
function rowRules(schema: z.ZodMiniType, shape: Record<string, z.ZodMiniType>): RowRule[] {
  const rules: RowRule[] = [];
  for (const [list, field] of Object.entries(shape)) {
    const element = arrayElement(field);
    const rowShape = element ? objectShape(element) : undefined;
    if (!rowShape) continue;
    const rule: RowRule = { list, when: [], needs: {} };
    for (const key of Object.keys(rowShape)) {
      for (const value of FILLED) {
        const form = new FormData();
        form.set(`${list}[0].${key}`, value);
        const errors = errorsOf(parseWithZod(form, { schema }));
        if (errors[`${list}[0].${key}`]?.length) continue; // not a value this box takes
        const prefix = `${list}[0].`;
        const needs = Object.entries(errors).filter(([name, messages]) => name.startsWith(prefix) && messages?.length);
        for (const [name, messages] of needs) rule.needs[name.slice(prefix.length)] = messages![0];
        if (needs.length) rule.when.push(key);
        break;
      }
    }
    if (rule.when.length) rules.push(rule);
  }
  return rules;
}

/** The message the schema gives a field's posted value, or undefined when it passes. */
function messageFor(field: z.ZodMiniType, value: string): string | undefined {
  const form = new FormData();
  form.set("v", value);
  return errorsOf(parseWithZod(form, { schema: z.object({ v: field }) })).v?.[0];
}

const errorsOf = (submission: { status?: string }) =>
  "error" in submission ? ((submission.error ?? {}) as Record<string, string[] | null>) : {};

function fieldRule(field: z.ZodMiniType): FieldRule | undefined {
  const rule: FieldRule = {};
  const required = messageFor(field, "");
  if (required) {
    rule.required = required;
    if (messageFor(field, " ") === required) rule.trim = true;
  }
  const defs = layers(field).map(defOf);
  let shortest = 0;
  let longest = Infinity;
  for (const def of defs.filter((d) => d.type === "string")) {
    for (const check of def.checks ?? []) {
      const { check: kind, minimum, maximum } = check._zod.def;
      if (kind === "min_length" && minimum! > 1) {
        const message = messageFor(field, "a".repeat(minimum! - 1));
        if (message && (!rule.minLength || minimum! > rule.minLength[0])) rule.minLength = [minimum!, message];
        shortest = Math.max(shortest, minimum!);
      }
      if (kind === "max_length") {
        const message = messageFor(field, "a".repeat(maximum! + 1));
        if (message && (!rule.maxLength || maximum! < rule.maxLength[0])) rule.maxLength = [maximum!, message];
        longest = Math.min(longest, maximum!);
      }
    }
  }
  // A string format (z.email() and the like) carries its pattern on its definition, as a schema or as a check.
  const formats = defs.flatMap((d) => [d, ...(d.checks ?? []).map((c) => c._zod.def)]) as { pattern?: RegExp }[];
  for (const pattern of new Set(formats.map((d) => d.pattern).filter((p): p is RegExp => p instanceof RegExp))) {
    const length = Math.max(shortest, 1);
    const breaking = ["a".repeat(length), "~".repeat(length), "0".repeat(length)].find(
      (v) => v.length <= longest && !new RegExp(pattern.source, pattern.flags).test(v),
    );
    const message = breaking && messageFor(field, breaking);
    if (message) (rule.patterns ??= []).push([pattern.source, pattern.flags, message]);
  }
  const numbers = defs.filter((d) => d.type === "number");
  if (numbers.length) {
    const notNumber = messageFor(field, "abc");
    if (notNumber) rule.number = notNumber;
  }
  for (const def of numbers) {
    for (const check of def.checks ?? []) {
      const {
        value,
        inclusive,
        check: kind,
      } = check._zod.def as { value?: number; inclusive?: boolean; check: string };
      if (typeof value !== "number" || !inclusive) continue; // only the inclusive bounds forms use
      const message = messageFor(field, String(kind === "greater_than" ? value - 1 : value + 1));
      if (message && kind === "greater_than") rule.min = [value, message];
      if (message && kind === "less_than") rule.max = [value, message];
    }
  }
  if (numbers.length) {
    // A fraction just above a whole number the field takes, so that only a whole-number check can refuse it.
    const lowest = rule.min?.[0] ?? 0;
    const fraction = lowest + 0.5;
    const takesLowest = messageFor(field, String(lowest)) === undefined;
    const whole = takesLowest && (!rule.max || fraction <= rule.max[0]) && messageFor(field, String(fraction));
    if (whole) rule.whole = whole;
  }
  if (!rule.required && rule.trim === undefined) {
    // An optional box the schema reads as blank when it holds spaces only, however many.
    const spaces = [" ", " ".repeat(Number.isFinite(longest) ? longest + 1 : 3)];
    if (spaces.every((value) => messageFor(field, value) === undefined) && Object.keys(rule).length) rule.blank = true;
  }
  return Object.keys(rule).length ? rule : undefined;
}
