import { TWO_FACTOR_INTENTS, TWO_FACTOR_MESSAGES } from "./two-factor";
import * as z from "./zod";

/** The two-factor forms' schemas (server only: the browser checks the rules derived from them). */

/** A code as typed: digits (spaces allowed, "123 456") or a recovery code ("abcde-fghij"). */
const code = z.pipe(
  z
    .string({ error: TWO_FACTOR_MESSAGES.codeRequired })
    .check(
      z.trim(),
      z.minLength(1, TWO_FACTOR_MESSAGES.codeRequired),
      z.maxLength(40, TWO_FACTOR_MESSAGES.codeInvalid),
    ),
  z.transform((v) => v.replace(/[\s-]/g, "").toLowerCase()),
);
const redirectTo = z.optional(z.string().check(z.maxLength(2000)));

export const CodeSchema = z.object({ intent: z.literal(TWO_FACTOR_INTENTS.verify), code, redirectTo });
export const EnrolSchema = z.object({ intent: z.literal(TWO_FACTOR_INTENTS.confirm), code });
export const DisableSchema = z.object({ intent: z.literal(TWO_FACTOR_INTENTS.disable), code });
