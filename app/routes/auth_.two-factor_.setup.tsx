import { getFormProps, useForm } from "~/components/useForm";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { TwoFactorCodeFields } from "~/components/account";
import { FormAlert } from "~/components/forms";
import { useIsPending } from "~/components/hooks";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";
import { safeRedirect } from "~/domain/account";
import { DisableSchema, EnrolSchema } from "~/domain/two-factor.schema";
import { formatRecoveryCode, TWO_FACTOR_INTENTS, TWO_FACTOR_MESSAGES } from "~/domain/two-factor";
import { TOTP_SETTINGS } from "~/domain/totp";
import { requireUser, signInState } from "~/server/auth.server";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import { readForm } from "~/server/forms.server";
import { redirectWithFlash } from "~/server/flash.server";
import { endAllSessions, markVerified, rotateSession, sessionIdOf } from "~/server/session.server";
import {
  checkSecondFactor,
  confirmEnrolment,
  enrolmentView,
  removeSecondFactor,
  startEnrolment,
} from "~/server/two-factor.server";
import { clientAddress } from "~/server/rate-limit.server";

export const meta: MetaFunction = () =>
  pageMeta("Set Up Two-Factor Sign-In | 24-Hour Website", "Add an authenticator app to your account.");

/**
 * /auth/two-factor/setup: enrolment. An admin comes here right after the password
 * (no admin page answers until it is done); a signed-in customer comes from the
 * dashboard to opt in. The key is shown as a QR code drawn on the server (SVG,
 * no script) and as text; the first code confirms it; then the ten recovery
 * codes are shown, once.
 */
async function enrollingUser(request: Request) {
  const state = await signInState(request);
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/dashboard");
  if (state.kind === "none") throw redirect(`/auth?redirectTo=${encodeURIComponent("/auth/two-factor/setup")}`);
  // Already on: this page never replaces a key (a reset does, see the admin security page).
  if (state.user.twoFactor)
    throw redirect(
      state.kind === "pending" ? `/auth/two-factor?redirectTo=${encodeURIComponent(redirectTo)}` : redirectTo,
    );
  return { user: state.user, redirectTo };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const state = await signInState(request);
  // Just turned on (this page's own post renders it, with the recovery codes): nothing more to set up.
  if (state.kind === "signed-in" && state.user.twoFactor) {
    const to = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/dashboard");
    return { redirectTo: to, admin: state.user.isAdmin, enrolment: null, alreadyOn: true, rules: null };
  }
  const { user, redirectTo } = await enrollingUser(request);
  const view = await enrolmentView(user);
  return {
    redirectTo: user.isAdmin && redirectTo === "/dashboard" ? "/admin" : redirectTo,
    admin: user.isAdmin,
    enrolment: view ? { secret: view.secret.replace(/(.{4})/g, "$1 ").trim(), qrSvg: view.qrSvg } : null,
    alreadyOn: false,
    rules: formRules(EnrolSchema),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  if (form.get("intent") === TWO_FACTOR_INTENTS.disable) return turnOff(request, form);
  const { user, redirectTo } = await enrollingUser(request);
  const here = `/auth/two-factor/setup?redirectTo=${encodeURIComponent(redirectTo)}`;
  switch (form.get("intent")) {
    case TWO_FACTOR_INTENTS.start: {
      await startEnrolment(user.id);
      return redirect(here, { status: 303 });
    }
    case TWO_FACTOR_INTENTS.confirm: {
      const submission = parseWithZod(form, { schema: EnrolSchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const outcome = await confirmEnrolment(user, submission.value.code, clientAddress(request));
      if (!outcome.ok) {
        // An enrolment that is gone starts again (the flash says so); any other refusal is said on the form.
        if (outcome.status === 410)
          return redirectWithFlash(request, here, { kind: "error", title: outcome.message }, { status: 303 });
        return data({ result: submission.reply({ formErrors: [outcome.message] }) }, { status: outcome.status });
      }
      // The code just typed is this session's proof. The id stays (it is new since the password), so the
      // page this post renders, whose loader still reads the old cookie, sees the session signed in.
      const cookie = await markVerified(request);
      return data(
        { recoveryCodes: outcome.recoveryCodes.map(formatRecoveryCode), continueTo: redirectTo },
        { headers: { "Set-Cookie": cookie } },
      );
    }
    default:
      // Said on this page, like any refusal (a plain-text answer here was a 500: the page read it as an object).
      return data({ refused: TWO_FACTOR_MESSAGES.unknownIntent }, { status: 400 });
  }
}

/**
 * A customer turns two-factor off from the dashboard with a current code (or a
 * recovery code). Admins can't: theirs is required (another admin can reset it).
 */
async function turnOff(request: Request, form: FormData) {
  const user = await requireUser(request);
  const fail = (title: string) => redirectWithFlash(request, "/dashboard", { kind: "error", title }, { status: 303 });
  if (user.isAdmin || !user.twoFactor) return fail(TWO_FACTOR_MESSAGES.adminAlwaysOn);
  const submission = parseWithZod(form, { schema: DisableSchema });
  if (submission.status !== "success") return fail(TWO_FACTOR_MESSAGES.codeRequired);
  const check = await checkSecondFactor(user, submission.value.code, clientAddress(request), { trusted: true });
  if (!check.ok) return fail(check.message);
  await removeSecondFactor(user.id);
  const cookie = await rotateSession(request, user.id);
  await endAllSessions(user.id, await sessionIdOf(cookie));
  return redirectWithFlash(
    request,
    "/dashboard",
    { kind: "success", ...TWO_FACTOR_MESSAGES.disabled },
    { status: 303, headers: { "Set-Cookie": cookie } },
  );
}

export default function TwoFactorSetup() {
  const { enrolment, admin, redirectTo, alreadyOn } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (actionData && "recoveryCodes" in actionData) {
    return <RecoveryCodes codes={actionData.recoveryCodes} continueTo={actionData.continueTo} />;
  }
  if (alreadyOn) {
    return (
      <>
        <PageHero title="Two-Factor Sign-In Is On" lead="Your account asks for a code after the password." />
        <div className="wrap section narrow">
          <p>
            <Link to={redirectTo} className="button button-primary">
              Continue
            </Link>
          </p>
        </div>
      </>
    );
  }
  return (
    <>
      <PageHero
        title="Set Up Two-Factor Sign-In"
        lead={
          admin
            ? "Admin accounts open every customer's details, so they need a code from an authenticator app as well as the password."
            : "Add a code from an authenticator app to your password, so a stolen password alone can't open your account."
        }
      />
      <div className="wrap section narrow">
        {actionData && "refused" in actionData ? <FormAlert message={actionData.refused} /> : null}
        {enrolment ? (
          <EnrolmentForm enrolment={enrolment} />
        ) : (
          <Form method="post" className="card" aria-labelledby="start-heading">
            <h2 id="start-heading">Start</h2>
            <p>We'll show you a key to add to your authenticator app (Google Authenticator, 1Password, Authy...).</p>
            <button type="submit" name="intent" value={TWO_FACTOR_INTENTS.start} className="button button-primary">
              Show my key
            </button>
          </Form>
        )}
        {admin ? null : (
          <p>
            <Link to={redirectTo}>Not now</Link>
          </p>
        )}
      </div>
    </>
  );
}

function EnrolmentForm({ enrolment }: { enrolment: { secret: string; qrSvg: string } }) {
  const actionData = useActionData<typeof action>();
  const pending = useIsPending({ intent: TWO_FACTOR_INTENTS.confirm });
  const { rules } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "enrol",
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    rules: rules ?? undefined,
  });
  return (
    <section className="card" aria-labelledby="key-heading">
      <h2 id="key-heading">1. Add this key to your authenticator app</h2>
      <p>Scan the QR code with the app, or type the key in by hand.</p>
      <figure className="qr-code">
        {/* Drawn on the server by the qrcode library from our own otpauth:// address: no script, nothing user-supplied. */}
        <div
          role="img"
          aria-label="QR code of your two-factor key"
          dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }}
        />
        <figcaption>
          Key: <code className="totp-key">{enrolment.secret}</code>
          <br />
          <span className="hint">
            Time-based, {TOTP_SETTINGS.digits} digits, every {TOTP_SETTINGS.period} seconds ({TOTP_SETTINGS.algorithm}).
          </span>
        </figcaption>
      </figure>
      <Form method="post" {...getFormProps(form)} noValidate aria-labelledby="confirm-code-heading">
        <h2 id="confirm-code-heading">2. Enter the code it shows</h2>
        <TwoFactorCodeFields
          formErrors={form.errors}
          code={fields.code}
          hint="6 digits, from your authenticator app."
          recovery={false}
          intent={TWO_FACTOR_INTENTS.confirm}
          submit="Turn On Two-Factor Sign-In"
          pending={pending}
        />
      </Form>
    </section>
  );
}

function RecoveryCodes({ codes, continueTo }: { codes: string[]; continueTo: string }) {
  return (
    <>
      <PageHero
        title="Two-Factor Sign-In Is On"
        lead="Save these recovery codes somewhere safe. Each one signs you in once if you lose your phone."
      />
      <div className="wrap section narrow">
        <section className="card" aria-labelledby="codes-heading">
          <h2 id="codes-heading">Your recovery codes</h2>
          <p className="banner">
            This is the only time they are shown. We keep only a scrambled copy we can't read back.
          </p>
          <ol className="recovery-codes">
            {codes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ol>
          <p>
            <Link to={continueTo} className="button button-primary">
              I've saved them, continue
            </Link>
          </p>
        </section>
      </div>
    </>
  );
}
