import * as z from "zod/mini";

/**
 * Our Zod: `zod/mini`, the functional build of Zod 4, for every schema in the
 * app (`import * as z from "~/domain/zod"`). Schemas run on the server only:
 * the browser checks the rules `formRules` derives from them
 * (server/form-rules.server.ts), so no Zod ships to a page. Mini was chosen
 * when the schemas still went to the browser (classic `zod` cannot be
 * tree-shaken); the schemas are written in it, and one Zod keeps them alike.
 *
 * Mini composes with functions instead of methods:
 *   z.string().trim().max(5, m)       ->  z.string().check(z.trim(), z.maxLength(5, m))
 *   s.optional() / s.default(v)       ->  z.optional(s) / z._default(s, v)
 *   s.transform(f) / s.pipe(t)        ->  z.pipe(s, z.transform(f)) / z.pipe(s, t)
 *   s.superRefine(f) / s.refine(f, m) ->  s.check(z.superRefine(f)) / s.check(z.refine(f, m))
 *   z.preprocess(f, s)                ->  preprocess(f, s) below
 */
export * from "zod/mini";

/**
 * Plain words for a rule whose schema gives no message of its own (mini ships
 * no locale). Every message a customer meets on a form is written beside its
 * field; these cover what only a hand-made post can reach.
 */
z.config({
  customError(issue) {
    const { code } = issue;
    if (code === "too_big" || code === "too_small") {
      const limit = Number(code === "too_big" ? issue.maximum : issue.minimum);
      const most = code === "too_big" ? "at most" : "at least";
      const plural = limit === 1 ? "" : "s";
      if (issue.origin === "string") return `Must be ${most} ${limit} character${plural}`;
      if (issue.origin === "array" || issue.origin === "set") return `Must have ${most} ${limit} item${plural}`;
      return `Must be ${most} ${limit}`;
    }
    if (code === "invalid_type")
      return issue.input === undefined ? "Required" : "This value is not in the expected form";
    if (code === "invalid_value") return "Please choose one of the options";
    if (code === "invalid_format") return "This value is not in the expected format";
    if (code === "unrecognized_keys") return "This form has fields it does not expect";
    return "This value is not valid";
  },
});

/** `z.preprocess` of classic Zod (same signature): run `fn` on the raw input, then validate with `schema`. */
export function preprocess<A, U extends z.core.SomeType>(
  fn: (value: unknown) => A,
  schema: U,
): z.ZodMiniPipe<z.ZodMiniTransform<A, unknown>, U> {
  return z.pipe(z.transform(fn), schema as never) as never;
}

/** A form or query-string value left empty (or null) counts as absent: `preprocess(emptyAsAbsent, z.optional(...))`. */
export const emptyAsAbsent = (value: unknown) => (value === "" || value === null ? undefined : value);
