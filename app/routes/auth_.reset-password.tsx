import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { LinkPasswordPage } from "~/components/account";
import { AUTH_MESSAGES } from "~/domain/account";
import { ResetPasswordSchema } from "~/domain/account.schema";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import { linkPage } from "~/server/account-links.server";
import { resentLinkUser, signIn, type AuthUser } from "~/server/auth.server";
import { oncePerPost } from "~/server/form-keys.server";
import { resetPassword } from "~/server/password-reset.server";
import { readForm } from "~/server/forms.server";

export const meta: MetaFunction = () => [
  { title: "Choose a New Password | 24-Hour Website" },
  { name: "robots", content: "noindex" },
];

/**
 * The e-mailed reset link. Opening it changes nothing (mail scanners open
 * links); the form post uses it, once.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return { ...(await linkPage(request, "reset")), rules: formRules(ResetPasswordSchema) };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: ResetPasswordSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const { token, password } = submission.value;
  // A resent press (its answer lost after the link was spent) signs in as the first did, not "link has expired".
  let changed = null as AuthUser | null;
  const userId = await oncePerPost(`reset-password:${token}`, form, async () => {
    changed = await resetPassword(token, password);
    return { done: changed !== null, answer: changed?.id ?? null };
  });
  const user = changed ?? (userId ? await resentLinkUser(userId, password) : null);
  if (!user) {
    const message = userId ? AUTH_MESSAGES.resetAlreadyDone : AUTH_MESSAGES.resetInvalid;
    return data(submission.reply({ formErrors: [message], hideFields: ["password"] }), { status: 410 });
  }
  return signIn(request, user, "/dashboard", { kind: "success", ...AUTH_MESSAGES.resetDone });
}

export default function ResetPassword() {
  const { token, usable, rules } = useLoaderData<typeof loader>();
  return (
    <LinkPasswordPage
      token={token}
      usable={usable}
      lastResult={useActionData<typeof action>()}
      rules={rules}
      title="Choose a New Password"
      lead="Your new password must be at least 6 characters."
      label="New password"
      autoComplete="new-password"
      submit={{ label: "Set New Password" }}
      expired={{ lead: AUTH_MESSAGES.resetInvalid, to: "/auth/forgot-password", label: "Send a New Link" }}
    />
  );
}
