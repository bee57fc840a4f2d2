import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Field, FormAlert } from "~/components/forms";
import { PageHero } from "~/components/PageHero";
import { AUTH_MESSAGES, VERIFY_INTENTS, VerifyEmailSchema } from "~/domain/account";
import { findLink, requireUser, resendConfirmation, signIn, verifyEmail } from "~/server/auth.server";
import { redirectWithFlash } from "~/server/flash.server";

export const meta: MetaFunction = () => [{ title: "Confirm Your E-mail | 24-Hour Website" }, { name: "robots", content: "noindex" }];

/** The e-mailed confirmation link: opening it changes nothing; the form (with the account's password) confirms. */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, usable: Boolean(await findLink("verify", token)) };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  switch (formData.get("intent")) {
    case VERIFY_INTENTS.resend: {
      // From the dashboard: a signed-in account asks for a new link to its own address.
      const user = await requireUser(request);
      if (!(await resendConfirmation(user))) {
        return redirectWithFlash(request, "/dashboard", { kind: "error", title: AUTH_MESSAGES.resendLimit }, { status: 303 });
      }
      return redirectWithFlash(request, "/dashboard", { kind: "info", ...AUTH_MESSAGES.verifySent }, { status: 303 });
    }
    case VERIFY_INTENTS.confirm: {
      const submission = parseWithZod(formData, { schema: VerifyEmailSchema });
      if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
      const user = await verifyEmail(submission.value.token, submission.value.password);
      if (!user) {
        const message = (await findLink("verify", submission.value.token)) ? AUTH_MESSAGES.invalid : AUTH_MESSAGES.verifyInvalid;
        return data(submission.reply({ formErrors: [message], hideFields: ["password"] }), { status: 400 });
      }
      return signIn(request, user, "/dashboard", { kind: "success", ...AUTH_MESSAGES.verified });
    }
    default:
      return new Response("Unknown action", { status: 400 });
  }
}

export default function VerifyEmail() {
  const { token, usable } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: VerifyEmailSchema }),
    shouldValidate: "onSubmit",
  });
  if (!usable && !lastResult) {
    return (
      <PageHero title="Link Expired" lead={AUTH_MESSAGES.verifyInvalid}>
        <Link to="/auth" className="button button-primary">
          Sign In
        </Link>
      </PageHero>
    );
  }
  return (
    <>
      <PageHero title="Confirm Your E-mail" lead="Enter the password you chose when you signed up to confirm this address is yours." />
      <div className="wrap section narrow">
        <Form method="post" {...getFormProps(form)} noValidate className="card" aria-label="Confirm your e-mail">
          <FormAlert message={form.errors?.[0] ?? fields.password.errors?.[0]} />
          <input type="hidden" name="token" value={token} />
          <Field id={fields.password.id} label="Password" errors={fields.password.errors} errorId={fields.password.errorId}>
            <input {...getInputProps(fields.password, { type: "password" })} autoComplete="current-password" aria-required="true" />
          </Field>
          <button type="submit" name="intent" value={VERIFY_INTENTS.confirm} className="button button-primary" disabled={navigation.state !== "idle"}>
            Confirm and Sign In
          </button>
        </Form>
      </div>
    </>
  );
}
