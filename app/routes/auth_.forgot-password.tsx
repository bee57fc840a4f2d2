import { getFormProps, getInputProps, useForm } from "~/components/useForm";
import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Field, FormAlert, FormKey } from "~/components/forms";
import { useIsPending } from "~/components/hooks";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";
import { AUTH_MESSAGES } from "~/domain/account";
import { ForgotPasswordSchema } from "~/domain/account.schema";
import { oncePerPost } from "~/server/form-keys.server";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import { requestPasswordReset } from "~/server/password-reset.server";
import { redirectWithFlash } from "~/server/flash.server";
import { clientAddress } from "~/server/rate-limit.server";
import { readForm } from "~/server/forms.server";
import { SendStatus } from "~/components/connection";
import { SAME_FOR_ANYONE } from "~/components/static-page";

// Asked for with no cookie and no query, the page is the same for anyone (scripts/page-cache.mjs keeps it).
export const handle = SAME_FOR_ANYONE;

export const meta: MetaFunction = () =>
  pageMeta("Forgot Password | 24-Hour Website", "Choose a new password by e-mail.");

/**
 * Asks for a reset link. The answer is the same whether or not the address has an account,
 * in its words and its timing (the link is issued and queued after the answer; see requestPasswordReset).
 */
/** The form's rules for the browser's own check (the schema stays on the server). */
export const loader = () => ({ rules: formRules(ForgotPasswordSchema) });

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: ForgotPasswordSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  // A resent press (its answer lost) sends no second link, which would end the first one.
  const sent = await oncePerPost("forgot-password", form, async () => {
    const ok = (await requestPasswordReset(submission.value.email, clientAddress(request))) !== null;
    return { done: ok, answer: ok };
  });
  if (!sent) {
    return data(submission.reply({ formErrors: [AUTH_MESSAGES.tooMany] }), { status: 429 });
  }
  return redirectWithFlash(request, "/auth", { kind: "info", ...AUTH_MESSAGES.resetSent }, { status: 303 });
}

export default function ForgotPassword() {
  const lastResult = useActionData<typeof action>();
  const { rules } = useLoaderData<typeof loader>();
  const pending = useIsPending();
  const [form, fields] = useForm({
    lastResult,
    rules: rules,
  });
  return (
    <>
      <PageHero title="Forgot Password" lead="Enter your e-mail and we'll send you a link to choose a new password." />
      <div className="wrap section narrow">
        <Form method="post" {...getFormProps(form)} noValidate className="card" aria-label="Reset password">
          <FormKey />
          <FormAlert message={form.errors?.[0] ?? fields.email.errors?.[0]} />
          <Field id={fields.email.id} label="Email" errors={fields.email.errors} errorId={fields.email.errorId}>
            <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" aria-required="true" />
          </Field>
          <button type="submit" className="button button-primary" disabled={pending}>
            Send Reset Link
          </button>
          <SendStatus />
          <p>
            <Link to="/auth">Back to Sign In</Link>
          </p>
        </Form>
      </div>
    </>
  );
}
