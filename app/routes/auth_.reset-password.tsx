import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Field, FormAlert } from "~/components/forms";
import { PageHero } from "~/components/PageHero";
import { AUTH_MESSAGES, ResetPasswordSchema } from "~/domain/account";
import { findLink, resetPassword, signIn } from "~/server/auth.server";

export const meta: MetaFunction = () => [{ title: "Choose a New Password | 24-Hour Website" }, { name: "robots", content: "noindex" }];

/**
 * The e-mailed reset link. Opening it changes nothing (mail scanners open
 * links); the form post uses it, once.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, usable: Boolean(await findLink("reset", token)) };
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: ResetPasswordSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const user = await resetPassword(submission.value.token, submission.value.password);
  if (!user) return data(submission.reply({ formErrors: [AUTH_MESSAGES.resetInvalid], hideFields: ["password"] }), { status: 410 });
  return signIn(request, user, "/dashboard", { kind: "success", ...AUTH_MESSAGES.resetDone });
}

export default function ResetPassword() {
  const { token, usable } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
    shouldValidate: "onSubmit",
  });
  if (!usable && !lastResult) {
    return (
      <PageHero title="Link Expired" lead={AUTH_MESSAGES.resetInvalid}>
        <Link to="/auth/forgot-password" className="button button-primary">
          Send a New Link
        </Link>
      </PageHero>
    );
  }
  return (
    <>
      <PageHero title="Choose a New Password" lead="Your new password must be at least 6 characters." />
      <div className="wrap section narrow">
        <Form method="post" {...getFormProps(form)} noValidate className="card" aria-label="Choose a new password">
          <FormAlert message={form.errors?.[0] ?? fields.password.errors?.[0]} />
          <input type="hidden" name="token" value={token} />
          <Field id={fields.password.id} label="New password" errors={fields.password.errors} errorId={fields.password.errorId}>
            <input {...getInputProps(fields.password, { type: "password" })} autoComplete="new-password" aria-required="true" />
          </Field>
          <button type="submit" className="button button-primary" disabled={navigation.state !== "idle"}>
            Set New Password
          </button>
        </Form>
      </div>
    </>
  );
}
