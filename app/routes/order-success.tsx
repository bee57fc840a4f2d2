import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Checklist, Section } from "~/components/marketing";
import { PageHero } from "~/components/PageHero";
import { TOKEN_VALID_DAYS } from "~/domain/tokens";
import { CHECKOUT_MESSAGES } from "~/domain/checkout";
import { promise } from "~/domain/order-includes";
import { confirmCheckout, startedHere } from "~/server/checkout.server";
import { orderBought } from "~/server/intake/draft.server";
import { errorMessage, log } from "~/server/log.server";

export const meta: MetaFunction = () => [
  { title: "Payment Successful | 24-Hour Website" },
  { name: "robots", content: "noindex" },
];

/**
 * Where Stripe sends the buyer back. Confirms the payment with Stripe and, if the
 * webhook has not arrived yet, fulfils the order (idempotent: reloading changes nothing).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id");
  if (!sessionId) throw redirect("/rapid-website");
  try {
    const confirmation = await confirmCheckout(sessionId);
    if (confirmation.state === "paid") {
      // Only the browser that started this checkout gets the link here; the buyer always gets it by e-mail.
      // An order bought with a coupon for some addresses, without proof of the address, never shows it here.
      const intakeUrl =
        !confirmation.linksByEmailOnly && (await startedHere(request, confirmation.orderId))
          ? `/intake-form?token=${encodeURIComponent(confirmation.token)}`
          : null;
      const { includes } = await orderBought(confirmation.orderId);
      return { state: "paid" as const, intakeUrl, emailOnly: confirmation.linksByEmailOnly, includes };
    }
    return { state: confirmation.state };
  } catch (error) {
    log("error", "payment.verify_failed", { reason: errorMessage(error) });
    return { state: "unknown" as const };
  }
}

export default function OrderSuccess() {
  const result = useLoaderData<typeof loader>();
  if (result.state === "processing") {
    return (
      <PageHero
        title="Payment Processing"
        lead="Your bank is still confirming the payment. We'll e-mail your intake form link as soon as it's confirmed."
      >
        <Link to="/" className="button">
          Return to Homepage
        </Link>
      </PageHero>
    );
  }
  if (result.state !== "paid") {
    const [title, description] = CHECKOUT_MESSAGES.verification.split(": ");
    return (
      <PageHero title={title} lead={description}>
        <div className="actions">
          <Link to="/contact" className="button button-primary">
            Contact support
          </Link>
          <Link to="/" className="button">
            Return to Homepage
          </Link>
        </div>
      </PageHero>
    );
  }
  const { includes } = result;
  const steps = ["Payment received", "Fill in your intake form", promise.draftStep(includes)];
  return (
    <>
      <PageHero
        title="Payment Successful!"
        lead={`Thank you for your order. We've e-mailed you a link to your intake form. The link is valid for ${TOKEN_VALID_DAYS.intake} days: use it to come back to your answers any time.`}
      >
        {result.emailOnly ? (
          <p>{CHECKOUT_MESSAGES.linksByEmailOnly}</p>
        ) : result.intakeUrl ? null : (
          <p>Open the link in that e-mail to start your intake form.</p>
        )}
        <div className="actions">
          {result.intakeUrl ? (
            <Link to={result.intakeUrl} className="button button-primary" rel="noreferrer">
              Go to Intake Form
            </Link>
          ) : null}
          <Link to="/" className="button">
            Return to Homepage
          </Link>
        </div>
      </PageHero>
      <Section title="Your Progress">
        <ol className="grid card-list progress-steps">
          {steps.map((step, i) => (
            <li key={step} className={`card${i === 0 ? " done" : ""}`}>
              <h3>{step}</h3>
              <p>{i === 0 ? "Done" : i === 1 ? "Next: about 10 minutes" : "After we receive your details"}</p>
            </li>
          ))}
        </ol>
      </Section>
      <Section title={promise.guaranteeTitle(includes)} tone="alt">
        <p className="banner">{promise.guarantee(includes)}</p>
      </Section>
      <Section title="What's Next">
        <Checklist
          items={[
            "Fill in the intake form: it saves as you go, and the link in your e-mail brings you back any time.",
            "Upload your logo and photos if you have them.",
            `Receive your first draft within ${includes.windowHours} hours.`,
            `Ask for changes: ${promise.rounds(includes)} included.`,
          ]}
        />
      </Section>
    </>
  );
}
