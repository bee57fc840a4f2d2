import { CONTACT_MESSAGE_MAX } from "./contact";
import { EmailSchema } from "./schemas";
import * as z from "./zod";

/** The contact form (spec 1 section 5), parsed by the server; the browser checks the rules `formRules` derives from it. Messages are the spec's. */
export const ContactSchema = z.object({
  name: z
    .string({ error: "Name is required" })
    .check(z.trim(), z.minLength(1, "Name is required"), z.maxLength(100, "Name must be less than 100 characters")),
  email: EmailSchema,
  phone: z.optional(z.string().check(z.trim(), z.maxLength(20, "Phone must be less than 20 characters"))),
  message: z
    .string({ error: "Message is required" })
    .check(
      z.trim(),
      z.minLength(1, "Message is required"),
      z.maxLength(CONTACT_MESSAGE_MAX, `Message must be less than ${CONTACT_MESSAGE_MAX} characters`),
    ),
});

export type ContactInput = z.infer<typeof ContactSchema>;
