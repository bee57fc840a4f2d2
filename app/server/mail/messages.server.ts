import type { ContactInput } from "~/domain/contact";
import { layout } from "./templates.server";

/** Every e-mail the app sends, one function each. */

export function contactNotice(input: ContactInput) {
  return layout(`New enquiry from ${input.name}`, [
    "A new message came in through the website's contact form.",
    `Name: ${input.name}\nEmail: ${input.email}\nPhone: ${input.phone || "(not given)"}`,
    { quote: input.message },
    "Reply to this e-mail to answer them directly.",
  ]);
}
