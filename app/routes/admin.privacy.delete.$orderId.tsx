import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { adminLinks } from "~/components/admin/AdminTabs";
import { ConfirmActions, ConfirmPage } from "~/components/admin/ConfirmPage";
import { orderIdParam } from "~/domain/admin/order-detail";
import { shortId } from "~/domain/orders";
import { requireAdmin, requireFreshProof } from "~/server/auth.server";
import { readForm } from "~/server/forms.server";
import { DELETION_MESSAGES } from "~/domain/admin/data-deletion";
import { deleteOrderData, deletionPreview } from "~/server/data-deletion.server";
import { redirectWithFlash } from "~/server/flash.server";
import { errorMessage, log } from "~/server/log.server";

export const links = adminLinks;

export const meta: MetaFunction = () => [
  { title: "Confirm Data Deletion | Admin" },
  { name: "robots", content: "noindex" },
];

const INTENT = { delete: "delete" } as const;
/** The reason recorded for a deletion an admin confirms (spec 2 section 7). */
export const ADMIN_DELETION_REASON = "Admin-initiated deletion";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const orderId = orderIdParam(params);
  const preview = await deletionPreview(orderId);
  if (!preview) throw new Response(DELETION_MESSAGES.notFound, { status: 404 });
  return { orderId, shortId: shortId(orderId), ...preview };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const orderId = orderIdParam(params);
  const form = await readForm(request);
  if (form.get("intent") !== INTENT.delete) throw new Response("Unknown intent", { status: 400 });
  // Permanent: a code from the last 10 minutes, else the code page and back to this confirmation.
  await requireFreshProof(request, `/admin/privacy/delete/${orderId}`);
  try {
    const { deleted } = await deleteOrderData({ orderId, reason: ADMIN_DELETION_REASON, actor: admin });
    if (!deleted) throw new Response(DELETION_MESSAGES.notFound, { status: 404 });
  } catch (error) {
    if (error instanceof Response) throw error;
    log("error", "privacy.delete_failed", {
      order_id: orderId,
      reason: errorMessage(error),
    });
    return redirectWithFlash(
      request,
      `/admin/privacy/delete/${orderId}`,
      { kind: "error", title: DELETION_MESSAGES.failed },
      { status: 303 },
    );
  }
  return redirectWithFlash(
    request,
    "/admin/privacy?tab=deletions",
    { kind: "success", ...DELETION_MESSAGES.deleted },
    { status: 303 },
  );
}

export default function ConfirmDataDeletion() {
  const d = useLoaderData<typeof loader>();
  return (
    <ConfirmPage current="privacy" heading="Confirm Data Deletion">
      <p>
        All data for order #{d.shortId}
        {d.businessName ? ` (${d.businessName}, ${d.email})` : ` (${d.email})`} will be permanently deleted: the intake
        form, uploaded logo and photos, revision feedback, access links and e-mails. This cannot be undone.
      </p>
      <p className="hint">The order's payment record is kept without personal details, for the business's accounts.</p>
      {d.alreadyDeleted ? (
        <p className="banner">This order's data has already been deleted. Running the deletion again is harmless.</p>
      ) : null}
      <Form method="post">
        <ConfirmActions
          cancelTo="/admin/privacy?tab=deletions"
          intent={INTENT.delete}
          label="Delete Permanently"
          pendingLabel="Deleting..."
        />
      </Form>
    </ConfirmPage>
  );
}

export function ErrorBoundary() {
  return (
    <AdminErrorBoundary
      notFound={DELETION_MESSAGES.notFound}
      back={{ to: "/admin/privacy?tab=deletions", label: "Back to privacy" }}
    />
  );
}
