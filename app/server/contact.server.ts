import mongoose from "mongoose";
import type { ContactInput } from "~/domain/contact.schema";
import { getEnv } from "./env.server";
import { queueMail } from "./mail/outbox.server";
import { contactNotice } from "./mail/messages.server";
import { ContactMessage } from "./models/index.server";

/**
 * Queues the e-mail to the business (reply-to the sender), then stores the
 * message under the same id. In that order, a stored message always has its
 * e-mail: the database failing between the two inserts (measured in
 * tests/fault/fault-database-restart.test.ts) leaves at most an e-mail
 * whose copy was not kept, never a message nobody is told about. The outbox
 * retries the e-mail until the mail server takes it.
 */
export async function receiveContactMessage(input: ContactInput) {
  const id = new mongoose.Types.ObjectId();
  await queueMail({
    key: `contact:${id}`,
    to: getEnv().BUSINESS_EMAIL,
    replyTo: input.email,
    about: {}, // an enquiry belongs to no order or account
    ...contactNotice(input),
  });
  await ContactMessage.create({
    _id: id,
    name: input.name,
    email: input.email,
    phone: input.phone || undefined,
    message: input.message,
  });
  return String(id);
}
