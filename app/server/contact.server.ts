import type { ContactInput } from "~/domain/contact";
import { connectDb } from "./db.server";
import { getEnv } from "./env.server";
import { queueMail } from "./mail/outbox.server";
import { contactNotice } from "./mail/messages.server";
import { ContactMessage } from "./models/index.server";

/**
 * Stores the message, then queues the e-mail to the business (reply-to the
 * sender). Once stored, the message is never lost: the outbox retries the
 * e-mail until the mail server takes it.
 */
export async function receiveContactMessage(input: ContactInput) {
  await connectDb();
  const stored = await ContactMessage.create({
    name: input.name,
    email: input.email,
    phone: input.phone || undefined,
    message: input.message,
  });
  await queueMail({
    key: `contact:${stored._id}`,
    to: getEnv().BUSINESS_EMAIL,
    replyTo: input.email,
    ...contactNotice(input),
  });
  return String(stored._id);
}
