import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { PageHero } from "~/components/PageHero";
import { INTAKE_MESSAGES } from "~/domain/intake/steps";
import { furthestStep } from "~/domain/intake/data";
import { redirectWithFlash } from "~/server/flash.server";
import { readForm } from "~/server/forms.server";
import { loadSubmission } from "~/server/intake.server";
import { exchangeToken, renewToken, requireTokenSession } from "~/server/tokens.server";

export const meta: MetaFunction = () => [
  { title: "Intake Form | 24-Hour Website" },
  { name: "robots", content: "noindex" },
];

/**
 * The e-mailed link lands here. A known token becomes an intake session (a
 * cookie) and the browser moves to a URL without the token, so no secret sits
 * in the address bar, history, logs or Referer. Then: the current step, or a
 * screen that explains an expired or already-submitted link.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (token !== null) throw await exchangeToken(request, token, "intake");
  const state = await requireTokenSession(request, "intake");
  if (state.state === "valid")
    throw redirect(`/intake-form/${furthestStep(await loadSubmission(state.token.order_id))}`);
  return { screen: state.state };
}

/** Renewal of an expired link (spec: renew-token), for the link this browser opened. */
export async function action({ request }: ActionFunctionArgs) {
  const state = await requireTokenSession(request, "intake");
  await readForm(request); // the renewal button sends no fields; reading bounds and checks the body like every form
  if (state.state === "valid") return redirect("/intake-form", 303);
  const renewed = state.state === "expired" && (await renewToken(state.token._id));
  if (!renewed)
    return redirectWithFlash(
      request,
      "/intake-form",
      { kind: "error", title: INTAKE_MESSAGES.renewFailed },
      { status: 303 },
    );
  return redirectWithFlash(request, "/intake-form", { kind: "success", ...INTAKE_MESSAGES.renewed }, { status: 303 });
}

export default function IntakeEntry() {
  const { screen } = useLoaderData<typeof loader>();
  if (screen === "used") {
    return (
      <PageHero
        title="Your intake form has been submitted"
        lead="Thank you. We have everything we need and we're building your website."
      >
        <p>
          Need to change something? <Link to="/contact">Contact us</Link> or reply to your confirmation e-mail, and
          we'll reopen the form for you. Once your first draft is ready you can also ask for up to 3 rounds of
          revisions.
        </p>
        <Link to="/" className="button">
          Return to Homepage
        </Link>
      </PageHero>
    );
  }
  return (
    <PageHero
      title="This link has expired"
      lead="For your security, intake links stop working after a while. You can renew yours now."
    >
      <Form method="post" className="actions">
        <button type="submit" className="button button-primary">
          Renew my access for 30 days
        </button>
        <Link to="/contact" className="button">
          Contact support
        </Link>
      </Form>
    </PageHero>
  );
}
