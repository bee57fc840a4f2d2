/** The contact form (spec 1 section 5): its limits and messages. Its schema is in contact.schema.ts (server only). */

export const CONTACT_MESSAGE_MAX = 1000;

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
