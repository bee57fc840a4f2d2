import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { adminLinks } from "~/components/admin/AdminTabs";
import { ConfirmActions, ConfirmPage } from "~/components/admin/ConfirmPage";
import { RESET_MESSAGES } from "~/domain/admin/security";
import { findAdmin, resetAdminSecondFactor } from "~/server/admin/security.server";
import { requireAdmin, requireFreshProof } from "~/server/auth.server";
import { redirectWithFlash } from "~/server/flash.server";
import { readForm } from "~/server/forms.server";

export const links = adminLinks;

export const meta: MetaFunction = () => [
  { title: "Reset Second Factor | Admin" },
  { name: "robots", content: "noindex" },
];

const INTENT = { reset: "reset" } as const;

/** Another admin, never oneself (the last admin uses the command line; see /admin/security). */
async function targetOf(params: { userId?: string }, admin: { id: string }) {
  const target = await findAdmin(params.userId ?? "");
  if (!target || target.id === admin.id) throw new Response(RESET_MESSAGES.notFound, { status: 404 });
  return target;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const target = await targetOf(params, admin);
  return { target };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const target = await targetOf(params, admin);
  const form = await readForm(request);
  if (form.get("intent") !== INTENT.reset) return new Response("Unknown intent", { status: 400 });
  await requireFreshProof(request, `/admin/security/reset/${target.id}`);
  await resetAdminSecondFactor(admin, target);
  return redirectWithFlash(
    request,
    "/admin/security",
    { kind: "success", ...RESET_MESSAGES.done(target.email) },
    { status: 303 },
  );
}

export default function ResetSecondFactor() {
  const { target } = useLoaderData<typeof loader>();
  return (
    <ConfirmPage title="Security" current="security" heading={`Reset the second factor of ${target.email}?`}>
      <p>
        Their authenticator key and recovery codes are deleted and they are signed out everywhere. At their next sign-in
        they set up a new authenticator app. Do this only when you are sure it is really them asking (call them back on
        a number you already know).
      </p>
      {target.twoFactor ? null : <p className="banner">They have no second factor set up at the moment.</p>}
      <Form method="post">
        <ConfirmActions
          cancelTo="/admin/security"
          intent={INTENT.reset}
          label="Reset Second Factor"
          pendingLabel="Resetting..."
        />
      </Form>
    </ConfirmPage>
  );
}

export function ErrorBoundary() {
  return (
    <AdminErrorBoundary
      notFound={RESET_MESSAGES.notFound}
      back={{ to: "/admin/security", label: "Back to security" }}
    />
  );
}
