import * as z from "./zod";
import { EmailSchema } from "./schemas";

export const CONTACT_MESSAGE_MAX = 1000;

/** The contact form (spec 1 section 5), shared by the browser and the server. Messages are the spec's. */
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

/** The order fields are checked and shown in; only the first failing message is announced. */
export const CONTACT_FIELDS = ["name", "email", "phone", "message"] as const;

export const CONTACT_MESSAGES = {
  sent: { title: "Message sent!", description: "We'll get back to you within 24 hours." },
  failed: "Failed to send message. Please try again or call us directly.",
  tooMany: "You've sent several messages in the last hour. Please try again later, or call us directly.",
  automated: "Your message looks automated, so it was not sent. Please leave the last box empty and try again.",
} as const;

/** A field real people leave empty; form-filling robots fill it. */
export const HONEYPOT_FIELD = "fax_number";
