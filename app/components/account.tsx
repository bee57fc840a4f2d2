import { getFormProps, getInputProps, useForm, type FieldMetadata, type SubmissionResult } from "~/components/useForm";
import { Form, Link } from "@remix-run/react";
import { VERIFY_INTENTS } from "~/domain/account";
import { Field, FormAlert, FormKey } from "~/components/forms";
import type { FormRules } from "~/domain/form-rules";
import { useIsPending } from "~/components/hooks";
import { PageHero } from "~/components/PageHero";
import { SendStatus } from "~/components/connection";

/**
 * The page an e-mailed single-use link opens (password reset, e-mail
 * confirmation): opening it changes nothing; a password form posts the token.
 * A link that is no longer usable gets an explanation and a way on.
 */
export function LinkPasswordPage(props: {
  token: string;
  usable: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
  /** The form's rules (formRules of its schema, from the loader). */
  rules: FormRules;
  title: string;
  lead: string;
  label: string;
  autoComplete: "new-password" | "current-password";
  submit: { label: string; intent?: string };
  expired: { lead: string; to: string; label: string };
}) {
  const pending = useIsPending();
  const [form, fields] = useForm({
    lastResult: props.lastResult,
    rules: props.rules,
  });
  if (!props.usable && !props.lastResult) {
    return (
      <PageHero title="Link Expired" lead={props.expired.lead}>
        <Link to={props.expired.to} className="button button-primary">
          {props.expired.label}
        </Link>
      </PageHero>
    );
  }
  return (
    <>
      <PageHero title={props.title} lead={props.lead} />
      <div className="wrap section narrow">
        <Form method="post" {...getFormProps(form)} noValidate className="card" aria-label={props.title}>
          <FormAlert message={form.errors?.[0] ?? fields.password.errors?.[0]} />
          <input type="hidden" name="token" value={props.token} />
          <FormKey />
          <Field
            id={fields.password.id}
            label={props.label}
            errors={fields.password.errors}
            errorId={fields.password.errorId}
          >
            <input
              {...getInputProps(fields.password, { type: "password" })}
              autoComplete={props.autoComplete}
              aria-required="true"
            />
          </Field>
          <button
            type="submit"
            name="intent"
            value={props.submit.intent}
            className="button button-primary"
            disabled={pending}
          >
            {props.submit.label}
          </button>
          <SendStatus />
        </Form>
      </div>
    </>
  );
}

/** The dashboard's card for two-factor sign-in: turn it on (enrolment page) or, for a customer, off with a code. */
/**
 * The code box of the two-factor forms (the sign-in step and enrolment's confirmation), with the
 * form's alert above it and its submit button: `recovery` when a recovery code is accepted too
 * (letters and dashes, so not a numeric keypad).
 */
export function TwoFactorCodeFields({
  formErrors,
  code,
  hint,
  recovery,
  intent,
  submit,
  pending,
}: {
  formErrors?: string[];
  code: FieldMetadata;
  hint: string;
  recovery: boolean;
  intent: string;
  submit: string;
  pending: boolean;
}) {
  return (
    <>
      <FormAlert message={formErrors?.[0] ?? code.errors?.[0]} />
      <Field id={code.id} label="Authentication code" hint={hint} errors={code.errors} errorId={code.errorId}>
        <input
          {...getInputProps(code, { type: "text" })}
          autoComplete="one-time-code"
          {...(recovery ? { inputMode: "text", autoCapitalize: "none", spellCheck: false } : { inputMode: "numeric" })}
          maxLength={40}
          aria-required="true"
        />
      </Field>
      <button type="submit" name="intent" value={intent} className="button button-primary" disabled={pending}>
        {pending ? "Checking..." : submit}
      </button>
    </>
  );
}

export function TwoFactorCard({ on, admin }: { on: boolean; admin: boolean }) {
  return (
    <section className="card" aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">Two-Factor Sign-In</h2>
      {!on ? (
        <>
          <p>
            Off. Turn it on to enter a code from an authenticator app after your password, so a stolen password alone
            can't open your account.
          </p>
          <Form method="post" action="/auth/two-factor/setup?redirectTo=%2Fdashboard">
            <button type="submit" name="intent" value="start" className="button button-small">
              Turn on two-factor sign-in
            </button>
          </Form>
        </>
      ) : admin ? (
        <p>
          On. Admin accounts always need it. <Link to="/admin/security">Your sessions and sign-in security</Link>
        </p>
      ) : (
        <Form method="post" action="/auth/two-factor/setup" aria-label="Turn off two-factor sign-in">
          <p>On: you enter a code from your authenticator app after your password.</p>
          <div className="field">
            <label htmlFor="two-factor-off-code">Code from your app (or a recovery code) to turn it off</label>
            <input
              id="two-factor-off-code"
              name="code"
              type="text"
              autoComplete="one-time-code"
              maxLength={40}
              required
            />
          </div>
          <button type="submit" name="intent" value="disable" className="button button-small">
            Turn off two-factor sign-in
          </button>
        </Form>
      )}
    </section>
  );
}

/**
 * An account whose address is not confirmed yet: what waits for the confirmation, and a button that e-mails
 * the link again (it comes back to `back`). `reason` is the page's own sentence (a refused plan, say).
 */
export function ConfirmEmailNotice({ email, back, reason }: { email: string; back: string; reason?: string }) {
  return (
    <div className="card notice" role="note">
      <h2>Confirm your e-mail address</h2>
      {reason ? <p>{reason}</p> : null}
      <p>
        Open the link we e-mailed to {email}. Once it&apos;s confirmed, orders you bought with this address appear in
        your dashboard and you can start a maintenance plan. Until then you can buy a website and fill in its intake
        form as usual.
      </p>
      <Form method="post" action="/auth/verify">
        <input type="hidden" name="redirectTo" value={back} />
        <button type="submit" name="intent" value={VERIFY_INTENTS.resend} className="button button-small">
          Send the link again
        </button>
      </Form>
    </div>
  );
}
