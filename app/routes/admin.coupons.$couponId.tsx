import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { adminLinks, AdminHeader } from "~/components/admin/AdminTabs";
import { ConfirmActions } from "~/components/admin/ConfirmPage";
import { CouponForm } from "~/components/admin/CouponForm";
import { FormKey } from "~/components/forms";
import { COUPON_FORM_MESSAGES, couponFormDefaults } from "~/domain/admin/coupons";
import { CouponFormSchema } from "~/domain/admin/coupons.schema";
import { deleteCoupon, findCoupon, updateCoupon } from "~/server/admin/coupons.server";
import { requireAdmin, requireFreshProof } from "~/server/auth.server";
import { oncePerPost } from "~/server/form-keys.server";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import { readForm } from "~/server/forms.server";
import { redirectWithFlash } from "~/server/flash.server";

export const links = adminLinks;

export const meta: MetaFunction = () => [{ title: "Edit coupon | Admin" }, { name: "robots", content: "noindex" }];

const INTENT = { update: "update", delete: "delete" } as const;

async function couponOr404(id: string | undefined) {
  const coupon = await findCoupon(id ?? "");
  if (!coupon) throw new Response(COUPON_FORM_MESSAGES.notFound, { status: 404 });
  return coupon;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const coupon = await couponOr404(params.couponId);
  return {
    id: String(coupon._id),
    code: coupon.code,
    confirmDelete: new URL(request.url).searchParams.get("confirm") === "delete",
    defaults: couponFormDefaults(coupon),
    rules: formRules(CouponFormSchema),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  // A resent Delete (its answer lost) is answered as the first was, though the coupon is gone by then.
  if (form.get("intent") === INTENT.delete) {
    const flash = await oncePerPost(`coupon-delete:${params.couponId}`, form, async () => {
      const coupon = await couponOr404(params.couponId);
      await requireFreshProof(request, `/admin/coupons/${coupon._id}?confirm=delete`);
      const outcome = await deleteCoupon(String(coupon._id), admin);
      const answer =
        outcome === "deactivated"
          ? COUPON_FORM_MESSAGES.deactivated
          : { ...COUPON_FORM_MESSAGES.deleted, description: coupon.code };
      return { done: true, answer };
    });
    return redirectWithFlash(request, "/admin/coupons", { kind: "success", ...flash }, { status: 303 });
  }
  const coupon = await couponOr404(params.couponId);
  if (form.get("intent") !== INTENT.update) return new Response("Unknown intent", { status: 400 });
  const submission = parseWithZod(form, { schema: CouponFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await updateCoupon(String(coupon._id), submission.value, admin);
  if (!result.ok)
    return data(submission.reply({ fieldErrors: { code: [COUPON_FORM_MESSAGES.codeTaken] } }), { status: 409 });
  return redirectWithFlash(
    request,
    "/admin/coupons",
    { kind: "success", title: COUPON_FORM_MESSAGES.updated.title, description: submission.value.code },
    { status: 303 },
  );
}

export default function EditCoupon() {
  const { id, code, confirmDelete, defaults, rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <>
      <AdminHeader title="Admin Panel" current="coupons" />
      <div className="wrap section admin-page">
        <p>
          <Link to="/admin/coupons">Back to coupons</Link>
        </p>
        {confirmDelete ? (
          <section className="card confirm" aria-labelledby="confirm-heading">
            <h2 id="confirm-heading">Delete coupon {code}</h2>
            <p>{COUPON_FORM_MESSAGES.confirmDelete}</p>
            <p className="hint">
              A coupon that has been used is deactivated instead, so the orders that used it keep their history.
            </p>
            <Form method="post" action={`/admin/coupons/${id}`}>
              <FormKey />
              <ConfirmActions
                cancelTo="/admin/coupons"
                intent={INTENT.delete}
                label="Delete"
                pendingLabel="Deleting..."
              />
            </Form>
          </section>
        ) : (
          <section className="card" aria-labelledby="edit-heading">
            <h2 id="edit-heading">Edit coupon {code}</h2>
            <CouponForm
              intent={INTENT.update}
              submitLabel="Save Coupon"
              lastResult={lastResult}
              defaultValue={defaults}
              rules={rules}
            />
            <p>
              <Link to={`/admin/coupons/${id}?confirm=delete`}>Delete this coupon</Link>
            </p>
          </section>
        )}
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return (
    <AdminErrorBoundary
      notFound={COUPON_FORM_MESSAGES.notFound}
      back={{ to: "/admin/coupons", label: "Back to coupons" }}
    />
  );
}
