import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { LinkPasswordPage } from "~/components/account";
import { AUTH_MESSAGES, safeRedirect, VERIFY_INTENTS } from "~/domain/account";
import { VerifyEmailSchema } from "~/domain/account.schema";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import { findLink, linkPage } from "~/server/account-links.server";
import { resendConfirmation, verifyEmail } from "~/server/accounts.server";
import { requireUser, resentLinkUser, signIn, TooManyAttemptsError, type AuthUser } from "~/server/auth.server";
import { clientAddress } from "~/server/rate-limit.server";
import { redirectWithFlash } from "~/server/flash.server";
import { readForm } from "~/server/forms.server";
import { oncePerPost } from "~/server/form-keys.server";

export const meta: MetaFunction = () => [
  { title: "Confirm Your E-mail | 24-Hour Website" },
  { name: "robots", content: "noindex" },
];

/** The e-mailed confirmation link: opening it changes nothing; the form (with the account's password) confirms. */
export async function loader({ request }: LoaderFunctionArgs) {
  return { ...(await linkPage(request, "verify")), rules: formRules(VerifyEmailSchema) };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  switch (formData.get("intent")) {
    case VERIFY_INTENTS.resend: {
      // A signed-in account asks for a new link to its own address, and goes back to the page it asked from.
      const user = await requireUser(request);
      const back = safeRedirect(String(formData.get("redirectTo") ?? ""), "/dashboard");
      if (!(await resendConfirmation(user))) {
        return redirectWithFlash(request, back, { kind: "error", title: AUTH_MESSAGES.resendLimit }, { status: 303 });
      }
      return redirectWithFlash(request, back, { kind: "info", ...AUTH_MESSAGES.verifySent }, { status: 303 });
    }
    case VERIFY_INTENTS.confirm: {
      const submission = parseWithZod(formData, { schema: VerifyEmailSchema });
      if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
      const { token, password } = submission.value;
      // A resent press (its answer lost after the link was spent) signs in as the first did.
      let user = null as AuthUser | null;
      try {
        const userId = await oncePerPost(`verify-email:${token}`, formData, async () => {
          user = await verifyEmail(token, password, clientAddress(request));
          return { done: user !== null, answer: user?.id ?? null };
        });
        user ??= userId ? await resentLinkUser(userId, password) : null;
      } catch (error) {
        if (!(error instanceof TooManyAttemptsError)) throw error;
        return data(submission.reply({ formErrors: [AUTH_MESSAGES.tooMany], hideFields: ["password"] }), {
          status: 429,
        });
      }
      if (!user) {
        const message = (await findLink("verify", submission.value.token))
          ? AUTH_MESSAGES.invalid
          : AUTH_MESSAGES.verifyInvalid;
        return data(submission.reply({ formErrors: [message], hideFields: ["password"] }), { status: 400 });
      }
      return signIn(request, user, "/dashboard", { kind: "success", ...AUTH_MESSAGES.verified });
    }
    default:
      return new Response("Unknown action", { status: 400 });
  }
}

export default function VerifyEmail() {
  const { token, usable, rules } = useLoaderData<typeof loader>();
  return (
    <LinkPasswordPage
      token={token}
      usable={usable}
      lastResult={useActionData<typeof action>()}
      rules={rules}
      title="Confirm Your E-mail"
      lead="Enter the password you chose when you signed up to confirm this address is yours."
      label="Password"
      autoComplete="current-password"
      submit={{ label: "Confirm and Sign In", intent: VERIFY_INTENTS.confirm }}
      expired={{ lead: AUTH_MESSAGES.verifyInvalid, to: "/auth", label: "Sign In" }}
    />
  );
}
