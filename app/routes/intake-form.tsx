import {
  data,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { PageHero } from "~/components/PageHero";
import { INTAKE_MESSAGES } from "~/domain/intake/steps";
import { furthestStep } from "~/domain/intake/data";
import { redirectWithFlash } from "~/server/flash.server";
import { readForm } from "~/server/forms.server";
import { promise } from "~/domain/order-includes";
import { loadSubmission, orderBought } from "~/server/intake/draft.server";
import { isRefunded } from "~/server/refunds.server";
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
/** Spec: 'Access Renewed!', then the page reloads after 1.5 s (into the form). */
export const RENEWED_RELOAD_MS = 1500;
const RENEWED = "renewed";
const REFUNDED = "refunded";

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const token = params.get("token");
  if (token !== null) throw await exchangeToken(request, token, "intake");
  const state = await requireTokenSession(request, "intake");
  // Just renewed: say so, then reload. Without JavaScript the Refresh header does it (whole seconds only).
  if (state.state === "valid" && params.has(RENEWED))
    return data(
      { screen: RENEWED },
      { headers: { Refresh: `${Math.ceil(RENEWED_RELOAD_MS / 1000)}; url=/intake-form` } },
    );
  if (state.state === "valid")
    throw redirect(`/intake-form/${furthestStep(await loadSubmission(state.token.order_id))}`);
  // A refunded order's link was closed with it: say so rather than "submitted" or "renew".
  if (await isRefunded(state.token.order_id)) return { screen: REFUNDED };
  if (state.state === "used")
    return { screen: state.state, rounds: promise.rounds((await orderBought(state.token.order_id)).includes) };
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
  return redirect(`/intake-form?${RENEWED}`, 303);
}

function Renewed() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate("/intake-form", { replace: true }), RENEWED_RELOAD_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <PageHero title={INTAKE_MESSAGES.renewed.title} lead={INTAKE_MESSAGES.renewed.description}>
      <p role="status">Taking you back to your intake form...</p>
      <Link to="/intake-form" className="button button-primary" replace>
        Continue now
      </Link>
    </PageHero>
  );
}

export default function IntakeEntry() {
  const view = useLoaderData<typeof loader>();
  const { screen } = view;
  if (screen === RENEWED) return <Renewed />;
  if (screen === REFUNDED)
    return (
      <PageHero
        title="Your order was refunded in full"
        lead="This intake form is closed, so there is nothing more to fill in."
      >
        <p>
          Questions about your refund? Reply to the refund e-mail or <Link to="/contact">contact us</Link>.
        </p>
        <Link to="/" className="button">
          Return to Homepage
        </Link>
      </PageHero>
    );
  if (view.screen === "used" && "rounds" in view) {
    return (
      <PageHero
        title="Your intake form has been submitted"
        lead="Thank you. We have everything we need and we're building your website."
      >
        <p>
          Need to change something? <Link to="/contact">Contact us</Link> or reply to your confirmation e-mail, and
          we'll reopen the form for you. Once your first draft is ready you can also ask for {view.rounds}.
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
