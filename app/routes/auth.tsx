import { getFormProps, getInputProps, useForm } from "~/components/useForm";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { failedFields, Field, FormAlert, FormKey } from "~/components/forms";
import { useIsPending } from "~/components/hooks";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";
import { authAlert, AUTH_INTENTS, AUTH_MESSAGES, authTab, safeRedirect, type AuthTab } from "~/domain/account";
import { AuthSchema, SignInSchema, SignUpSchema } from "~/domain/account.schema";
import type { FormRules } from "~/domain/form-rules";
import { authenticator, getUser, InvalidCredentialsError, signIn, TooManyAttemptsError } from "~/server/auth.server";
import { signUp } from "~/server/accounts.server";
import { redirectWithFlash } from "~/server/flash.server";
import { clientAddress } from "~/server/rate-limit.server";
import { oncePerPost } from "~/server/form-keys.server";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import { readForm } from "~/server/forms.server";
import { SendStatus } from "~/components/connection";
import { SAME_FOR_ANYONE } from "~/components/static-page";

// The title names the tab shown (WCAG 2.4.2): the sign-up page is not "Sign In".
// Asked for with no cookie and no query, the page is the same for anyone (scripts/page-cache.mjs keeps it).
export const handle = SAME_FOR_ANYONE;

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    `${data?.tab === "signup" ? "Sign Up" : "Sign In"} | 24-Hour Website`,
    "Sign in or create an account to follow your orders.",
  );

/** /auth: Sign In and Sign Up. The tabs are links (?tab=signup), so they work without JavaScript. */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"));
  if (await getUser(request)) throw redirect(redirectTo);
  return {
    tab: authTab(url.searchParams.get("tab")),
    redirectTo,
    rules: { signIn: formRules(SignInSchema), signUp: formRules(SignUpSchema) },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  // The form strategy reads the body itself, so this reads a copy.
  const formData = await readForm(request.clone());
  const submission = parseWithZod(formData, { schema: AuthSchema });
  const intent = formData.get("intent") === AUTH_INTENTS.signUp ? AUTH_INTENTS.signUp : AUTH_INTENTS.signIn;
  const reply = (status: number, formErrors?: string[]) =>
    data({ intent, result: submission.reply({ formErrors, hideFields: ["password"] }) }, { status });
  if (submission.status !== "success") return reply(400);
  const value = submission.value;
  const to = safeRedirect(value.redirectTo);

  switch (value.intent) {
    case AUTH_INTENTS.signIn: {
      try {
        const user = await authenticator.authenticate("password", request);
        return signIn(request, user, to, { kind: "success", ...AUTH_MESSAGES.welcome });
      } catch (error) {
        if (error instanceof InvalidCredentialsError) return reply(401, [AUTH_MESSAGES.invalid]);
        if (error instanceof TooManyAttemptsError) return reply(429, [AUTH_MESSAGES.tooMany]);
        throw error;
      }
    }
    case AUTH_INTENTS.signUp: {
      // Once per post: a resend after a lost answer neither mails twice nor says "account exists" to its own maker.
      const created = await oncePerPost("sign-up", formData, async () => {
        const done = await signUp(
          { email: value.email, password: value.password, fullName: value.fullName },
          clientAddress(request),
        );
        return { done, answer: done };
      });
      if (!created) {
        return reply(429, [AUTH_MESSAGES.tooMany]);
      }
      return redirectWithFlash(request, "/auth", { kind: "success", ...AUTH_MESSAGES.created }, { status: 303 });
    }
  }
}

export default function Auth() {
  const { tab: loaderTab, redirectTo, rules } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // After a failed post, stay on the form that was posted.
  const tab: AuthTab = actionData ? (actionData.intent === AUTH_INTENTS.signUp ? "signup" : "signin") : loaderTab;
  const query = (t: AuthTab) =>
    `?tab=${t}${redirectTo !== "/dashboard" ? `&redirectTo=${encodeURIComponent(redirectTo)}` : ""}`;
  return (
    <>
      <PageHero
        title={tab === "signup" ? "Create an Account" : "Sign In"}
        lead="Follow your orders, give feedback on your draft and manage your plan."
      />
      <div className="wrap section narrow">
        <nav className="tabs" aria-label="Sign in or sign up">
          <Link to={query("signin")} className="tab" aria-current={tab === "signin" ? "page" : undefined} replace>
            Sign In
          </Link>
          <Link to={query("signup")} className="tab" aria-current={tab === "signup" ? "page" : undefined} replace>
            Sign Up
          </Link>
        </nav>
        <div className="card">
          {tab === "signup" ? (
            <SignUpForm redirectTo={redirectTo} rules={rules.signUp} />
          ) : (
            <SignInForm redirectTo={redirectTo} rules={rules.signIn} />
          )}
        </div>
      </div>
    </>
  );
}

function SignInForm({ redirectTo, rules }: { redirectTo: string; rules: FormRules }) {
  const actionData = useActionData<typeof action>();
  const pending = useIsPending({ intent: AUTH_INTENTS.signIn });
  const [form, fields] = useForm({
    id: "sign-in",
    lastResult: actionData?.intent === AUTH_INTENTS.signIn ? actionData.result : undefined,
    rules: rules,
  });
  const problem = authAlert({ form: form.errors, email: fields.email.errors, password: fields.password.errors });
  const failed = failedFields(fields, { email: "Email", password: "Password" });
  return (
    <Form method="post" {...getFormProps(form)} noValidate aria-labelledby="sign-in-heading">
      <h2 id="sign-in-heading">Sign In</h2>
      <FormAlert message={problem} failed={failed} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Field id={fields.email.id} label="Email" errors={fields.email.errors} errorId={fields.email.errorId}>
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" aria-required="true" />
      </Field>
      <Field id={fields.password.id} label="Password" errors={fields.password.errors} errorId={fields.password.errorId}>
        <input
          {...getInputProps(fields.password, { type: "password" })}
          autoComplete="current-password"
          aria-required="true"
        />
      </Field>
      <button
        type="submit"
        name="intent"
        value={AUTH_INTENTS.signIn}
        className="button button-primary"
        disabled={pending}
      >
        {pending ? "Signing in..." : "Sign In"}
      </button>
      <SendStatus />
      <p>
        <Link to="/auth/forgot-password">Forgot password?</Link>
      </p>
    </Form>
  );
}

function SignUpForm({ redirectTo, rules }: { redirectTo: string; rules: FormRules }) {
  const actionData = useActionData<typeof action>();
  const pending = useIsPending({ intent: AUTH_INTENTS.signUp });
  const [form, fields] = useForm({
    id: "sign-up",
    lastResult: actionData?.intent === AUTH_INTENTS.signUp ? actionData.result : undefined,
    rules: rules,
  });
  const problem = authAlert({
    form: form.errors,
    email: fields.email.errors,
    password: fields.password.errors,
    fullName: fields.fullName.errors,
  });
  const failed = failedFields(fields, { fullName: "Full name", email: "Email", password: "Password" });
  return (
    <Form method="post" {...getFormProps(form)} noValidate aria-labelledby="sign-up-heading">
      <h2 id="sign-up-heading">Sign Up</h2>
      <FormAlert message={problem} failed={failed} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormKey />
      <Field
        id={fields.fullName.id}
        label="Full name (optional)"
        errors={fields.fullName.errors}
        errorId={fields.fullName.errorId}
      >
        <input {...getInputProps(fields.fullName, { type: "text" })} autoComplete="name" />
      </Field>
      <Field id={fields.email.id} label="Email" errors={fields.email.errors} errorId={fields.email.errorId}>
        <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" aria-required="true" />
      </Field>
      <Field
        id={fields.password.id}
        label="Password"
        hint="At least 6 characters."
        errors={fields.password.errors}
        errorId={fields.password.errorId}
      >
        <input
          {...getInputProps(fields.password, { type: "password" })}
          autoComplete="new-password"
          aria-required="true"
        />
      </Field>
      <button
        type="submit"
        name="intent"
        value={AUTH_INTENTS.signUp}
        className="button button-primary"
        disabled={pending}
      >
        {pending ? "Creating account..." : "Create Account"}
      </button>
      <SendStatus />
    </Form>
  );
}
