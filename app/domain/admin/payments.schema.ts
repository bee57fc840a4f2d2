import * as z from "../zod";

/** The one form on the Payments tab: which issue (its id is `kind:session`). The intent says what to do. */
export const PaymentIssueFormSchema = z.object({
  issueId: z
    .string({ error: "Which issue?" })
    .check(z.trim(), z.minLength(1, "Which issue?"), z.maxLength(300, "Which issue?")),
});
