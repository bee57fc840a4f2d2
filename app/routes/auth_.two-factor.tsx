import { getFormProps, useForm } from "~/components/useForm";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { TwoFactorCodeFields } from "~/components/account";
import { FormKey } from "~/components/forms";
import { useIsPending } from "~/components/hooks";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";
import { AUTH_MESSAGES, safeRedirect } from "~/domain/account";
import { TWO_FACTOR_INTENTS, TWO_FACTOR_MESSAGES } from "~/domain/two-factor";
import { CodeSchema } from "~/domain/two-factor.schema";
import { completeSecondFactor, signInState, type AuthUser } from "~/server/auth.server";
import type { Flash } from "~/server/flash.server";
import { oncePerPost } from "~/server/form-keys.server";
import { getSession } from "~/server/session.server";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import { readForm } from "~/server/forms.server";
import { checkSecondFactor } from "~/server/two-factor.server";
import { clientAddress } from "~/server/rate-limit.server";

export const meta: MetaFunction = () =>
  pageMeta("Two-Factor Sign-In | 24-Hour Website", "Enter the code from your authenticator app.");

/**
 * /auth/two-factor: the code step. After the password ("pending" session) it
 * finishes signing in; in a signed-in session it is the fresh proof a
 * destructive admin action asks for, and returns to that action's confirmation.
 * Either way: a 6-digit authenticator code or a recovery code.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  const state = await signInState(request);
  if (state.kind === "none") throw redirect(`/auth?redirectTo=${encodeURIComponent(redirectTo)}`);
  if (!state.user.twoFactor) {
    if (state.kind === "pending") throw redirect(`/auth/two-factor/setup?redirectTo=${encodeURIComponent(redirectTo)}`);
    throw redirect(redirectTo);
  }
  return { redirectTo, reprompt: state.kind === "signed-in", rules: formRules(CodeSchema) };
}

/** What a press of the code form came to: no session to finish, a refused code, or who passed. */
type CodeAnswer = null | { refused: string; status: number } | { user: Pick<AuthUser, "id" | "isAdmin">; flash: Flash };

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: CodeSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const to = safeRedirect(submission.value.redirectTo);
  // One press per session the browser held: a resent press (its answer lost, so the browser still holds the
  // session the first press ended) is signed in as the first was, not sent back to an empty Sign In.
  const held = (await getSession(request)).id;
  const answer = await oncePerPost<CodeAnswer>(`two-factor:${held}`, form, async () => {
    const state = await signInState(request);
    if (state.kind === "none") return { done: false, answer: null };
    // A session that passed the second factor already is the owner's: a guesser's run of wrong codes never holds it up.
    const check = await checkSecondFactor(state.user, submission.value.code, clientAddress(request), {
      trusted: state.kind === "signed-in",
    });
    if (!check.ok) return { done: false, answer: { refused: check.message, status: check.status } };
    const flash =
      check.via === "recovery" && check.recoveryCodesLeft === 0
        ? TWO_FACTOR_MESSAGES.lastRecoveryCode
        : check.via === "recovery"
          ? TWO_FACTOR_MESSAGES.recoveryCodeUsed(check.recoveryCodesLeft)
          : state.kind === "pending"
            ? AUTH_MESSAGES.welcome
            : TWO_FACTOR_MESSAGES.confirmed;
    const user = { id: state.user.id, isAdmin: state.user.isAdmin };
    const kind = check.via === "recovery" ? "info" : "success";
    return { done: true, answer: { user, flash: { kind, ...flash } } };
  });
  if (!answer) throw redirect(`/auth?redirectTo=${encodeURIComponent(to)}`);
  if ("refused" in answer) return data(submission.reply({ formErrors: [answer.refused] }), { status: answer.status });
  return completeSecondFactor(request, answer.user, to, answer.flash);
}

export default function TwoFactorStep() {
  const { redirectTo, reprompt, rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const pending = useIsPending({ intent: TWO_FACTOR_INTENTS.verify });
  const [form, fields] = useForm({
    id: "two-factor",
    lastResult,
    rules,
  });
  return (
    <>
      <PageHero
        title={reprompt ? "Confirm it's you" : "Two-Factor Sign-In"}
        lead={
          reprompt
            ? "This action can't be undone, so we ask for a fresh code. You'll come back to it with everything you chose kept."
            : "Your password was right. Now enter the code from your authenticator app."
        }
      />
      <div className="wrap section narrow">
        <Form method="post" {...getFormProps(form)} noValidate className="card" aria-labelledby="code-heading">
          <h2 id="code-heading">{reprompt ? "Enter a code to continue" : "Enter your code"}</h2>
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <FormKey />
          <TwoFactorCodeFields
            formErrors={form.errors}
            code={fields.code}
            hint="The 6-digit code your authenticator app shows now. Lost your phone? Enter one of your recovery codes instead."
            recovery
            intent={TWO_FACTOR_INTENTS.verify}
            submit={reprompt ? "Confirm" : "Verify"}
            pending={pending}
          />
        </Form>
        {reprompt ? (
          <p>
            <Link to="/admin">Cancel and go back to the admin panel</Link>
          </p>
        ) : (
          <Form method="post" action="/auth/sign-out" className="actions">
            <button type="submit" className="button">
              Not you? Sign out
            </button>
          </Form>
        )}
      </div>
    </>
  );
}
