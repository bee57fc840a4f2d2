import * as z from "./zod";

/** Field schemas shared by more than one area's forms. */

/** An e-mail address: trimmed, at most 255 characters (spec 1 section 5's messages). */
export const EmailSchema = z.pipe(
  z
    .string({ error: "Invalid email address" })
    .check(z.trim(), z.maxLength(255, "Email must be less than 255 characters")),
  z.email("Invalid email address"),
);
