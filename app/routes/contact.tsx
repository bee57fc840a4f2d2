import { getFormProps, getInputProps, getTextareaProps, useForm } from "~/components/useForm";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { SendStatus } from "~/components/connection";
import { RESTORED_MESSAGE, useDeviceCopy } from "~/components/useDeviceCopy";
import { ContactLinks } from "~/components/ContactLinks";
import { failedFields, Field, FormAlert, FormKey } from "~/components/forms";
import { useFormKeyPerRedirect, useHydrated, useIsPending } from "~/components/hooks";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";
import { BUSINESS } from "~/content/site";
import { type CONTACT_FIELDS, CONTACT_MESSAGE_MAX, CONTACT_MESSAGES, HONEYPOT_FIELD } from "~/domain/contact";
import { ContactSchema } from "~/domain/contact.schema";
import { receiveContactMessage } from "~/server/contact.server";
import { redirectWithFlash } from "~/server/flash.server";
import { accountCopyKey, oncePerPost } from "~/server/form-keys.server";
import { getUser } from "~/server/auth.server";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import { readForm } from "~/server/forms.server";
import { errorMessage, log } from "~/server/log.server";
import { clientAddress, consumeRateLimit, CONTACT_LIMIT } from "~/server/rate-limit.server";
import { SAME_FOR_ANYONE } from "~/components/static-page";

// Asked for with no cookie and no query, the page is the same for anyone (scripts/page-cache.mjs keeps it).
export const handle = SAME_FOR_ANYONE;

export const meta: MetaFunction = () =>
  pageMeta(
    "Contact Us | 24-Hour Website",
    "Ask us anything about your website. We answer every enquiry within 24 hours.",
  );

/**
 * The form's rules for the browser's own check (the schema stays on the server). The device copy of the message is the visitor's, or the signed-in account's: a copy made while
 * signed in is kept under that account's name and never put back for anyone else on the same browser.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  return { rules: formRules(ContactSchema), copyKey: user ? `contact:${accountCopyKey(user.id)}` : "contact" };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: ContactSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });

  if (String(formData.get(HONEYPOT_FIELD) ?? "") !== "") {
    log("warn", "contact.honeypot");
    return data(submission.reply({ formErrors: [CONTACT_MESSAGES.automated] }), { status: 400 });
  }
  let sent: boolean;
  try {
    // Once per post: a resend after a lost answer is told "sent" again, and nothing is stored or mailed twice.
    sent = await oncePerPost("contact", formData, async () => {
      if (!(await consumeRateLimit(CONTACT_LIMIT, clientAddress(request)))) return { done: false, answer: false };
      await receiveContactMessage(submission.value);
      return { done: true, answer: true };
    });
  } catch (error) {
    log("error", "contact.store_failed", { reason: errorMessage(error) });
    return data(submission.reply({ formErrors: [CONTACT_MESSAGES.failed] }), { status: 503 });
  }
  if (!sent) {
    log("warn", "contact.rate_limited");
    return data(submission.reply({ formErrors: [CONTACT_MESSAGES.tooMany] }), { status: 429 });
  }
  return redirectWithFlash(request, "/contact", { kind: "success", ...CONTACT_MESSAGES.sent }, { status: 303 });
}

export default function Contact() {
  // After a send (a redirect) the form starts empty; after a refusal it keeps what it holds.
  const formKey = useFormKeyPerRedirect();
  // The message is kept on this device until it is sent (a reload or a closed tab loses nothing).
  const { copyKey } = useLoaderData<typeof loader>();
  const { restored } = useDeviceCopy(CONTACT_FORM_ID, copyKey, formKey);
  return (
    <>
      <PageHero
        title="Contact Us"
        lead="Questions about your website? Send us a message. We answer every enquiry within 24 hours."
      />
      <div className="wrap section two-col">
        <ContactForm key={formKey} restored={restored} />
        <aside aria-labelledby="contact-details-heading">
          <h2 id="contact-details-heading">Other ways to reach us</h2>
          <ul className="checklist">
            <ContactLinks labelled />
          </ul>
          <p>Based in the {BUSINESS.region}. We reply to enquiries within 24 hours.</p>
        </aside>
      </div>
    </>
  );
}

/** The form's fields as their labels name them, in the form's order (the alert lists those that failed). */
const CONTACT_LABELS: Record<(typeof CONTACT_FIELDS)[number], string> = {
  name: "Name",
  email: "Email",
  phone: "Phone",
  message: "Message",
};

const CONTACT_FORM_ID = "contact-form";
const MESSAGE_COUNT_ID = "contact-message-count";

function ContactForm({ restored }: { restored: boolean }) {
  const lastResult = useActionData<typeof action>();
  const { rules } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const sending = useIsPending({ formAction: "/contact" });
  const [form, fields] = useForm({
    id: CONTACT_FORM_ID,
    lastResult,
    rules: rules,
    shouldRevalidate: "onInput",
  });
  const [length, setLength] = useState(() => String(fields.message.initialValue ?? "").length);
  const failed = failedFields(fields, CONTACT_LABELS);

  return (
    <Form method="post" {...getFormProps(form)} noValidate aria-labelledby="contact-form-heading">
      <h2 id="contact-form-heading">Send us a message</h2>
      <FormKey />
      {restored ? <p className="flash flash-info">{RESTORED_MESSAGE}</p> : null}
      <FormAlert message={form.errors?.[0]} failed={failed} />
      <Field id={fields.name.id} label="Name" errors={fields.name.errors} errorId={fields.name.errorId}>
        <input {...getInputProps(fields.name, { type: "text" })} autoComplete="name" aria-required="true" />
      </Field>
      <Field id={fields.email.id} label="Email" errors={fields.email.errors} errorId={fields.email.errorId}>
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" aria-required="true" />
      </Field>
      <Field id={fields.phone.id} label="Phone (optional)" errors={fields.phone.errors} errorId={fields.phone.errorId}>
        <input {...getInputProps(fields.phone, { type: "tel" })} autoComplete="tel" />
      </Field>
      <Field
        id={fields.message.id}
        label={`Message (up to ${CONTACT_MESSAGE_MAX} characters)`}
        errors={fields.message.errors}
        errorId={fields.message.errorId}
      >
        <textarea
          {...getTextareaProps(fields.message)}
          // The count is read with the field (not announced at every key: the label states the limit).
          aria-describedby={
            [hydrated ? MESSAGE_COUNT_ID : null, fields.message.errors ? fields.message.errorId : null]
              .filter(Boolean)
              .join(" ") || undefined
          }
          rows={6}
          aria-required="true"
          onInput={(e) => setLength(e.currentTarget.value.length)}
        />
        {hydrated ? (
          <p id={MESSAGE_COUNT_ID} className={`hint${length > CONTACT_MESSAGE_MAX ? " over" : ""}`}>
            {length}/{CONTACT_MESSAGE_MAX}
          </p>
        ) : null}
      </Field>
      <div className="honeypot" aria-hidden="true">
        <label htmlFor={HONEYPOT_FIELD}>Leave this box empty</label>
        <input id={HONEYPOT_FIELD} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
      </div>
      <button type="submit" className="button button-primary" disabled={sending}>
        {sending ? "Sending..." : "Send Message"}
      </button>
      <SendStatus />
    </Form>
  );
}
