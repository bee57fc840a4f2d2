import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { adminLinks, AdminHeader } from "~/components/admin/AdminTabs";
import { CouponForm } from "~/components/admin/CouponForm";
import { Pager } from "~/components/admin/Pager";
import { useFormKeyPerRedirect } from "~/components/hooks";
import { COUPON_FORM_MESSAGES } from "~/domain/admin/coupons";
import { CouponFormSchema } from "~/domain/admin/coupons.schema";
import { formatDate } from "~/domain/dates";
import { cursorParam } from "~/domain/paging";
import { createCoupon, listCoupons } from "~/server/admin/coupons.server";
import { requireAdmin } from "~/server/auth.server";
import { oncePerPost } from "~/server/form-keys.server";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import { readForm } from "~/server/forms.server";
import { redirectWithFlash } from "~/server/flash.server";

export const links = adminLinks;

export const meta: MetaFunction = () => [{ title: "Coupons | Admin" }, { name: "robots", content: "noindex" }];

const INTENT = { create: "create" } as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return {
    page: await listCoupons({ cursor: cursorParam(new URL(request.url).searchParams) }),
    rules: formRules(CouponFormSchema),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  if (form.get("intent") !== INTENT.create) return new Response("Unknown intent", { status: 400 });
  const submission = parseWithZod(form, { schema: CouponFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  // Once per post: a resend after a lost answer is told "created" again, not "code taken" by its own coupon.
  const result = await oncePerPost(`coupon:${admin.id}`, form, async () => {
    const answer = await createCoupon(submission.value, admin);
    return { done: answer.ok, answer };
  });
  if (!result.ok)
    return data(submission.reply({ fieldErrors: { code: [COUPON_FORM_MESSAGES.codeTaken] } }), { status: 409 });
  return redirectWithFlash(
    request,
    "/admin/coupons",
    { kind: "success", title: COUPON_FORM_MESSAGES.created.title, description: submission.value.code },
    { status: 303 },
  );
}

export default function AdminCoupons() {
  const { page, rules } = useLoaderData<typeof loader>();
  const coupons = page.rows;
  const lastResult = useActionData<typeof action>();
  const formKey = useFormKeyPerRedirect();
  return (
    <>
      <AdminHeader title="Admin Panel" current="coupons" />
      <div className="wrap section admin-page">
        <h2 id="coupons-heading">Coupons</h2>
        {coupons.length === 0 ? (
          <p className="empty card">No coupons yet</p>
        ) : (
          <div className="table-scroll">
            <table className="data-table" aria-labelledby="coupons-heading">
              <thead>
                <tr>
                  <th scope="col">Code</th>
                  <th scope="col">Discount</th>
                  <th scope="col">Used</th>
                  <th scope="col">Valid until</th>
                  <th scope="col">Restricted to</th>
                  <th scope="col">Status</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {coupons.map((c) => (
                  <tr key={c.id}>
                    <td className="mono">{c.code}</td>
                    <td>{c.discount}</td>
                    <td>
                      {c.timesUsed}
                      {c.maxUses ? ` / ${c.maxUses}` : ""}
                    </td>
                    <td>{c.validUntil ? formatDate(c.validUntil) : "No end date"}</td>
                    <td>{[...c.allowedEmails, ...c.allowedDomains.map((d) => `@${d}`)].join(", ") || "Anyone"}</td>
                    <td>
                      <span className={`status ${c.badge === "Active" ? "status-green" : "status-grey"}`}>
                        {c.badge.toUpperCase()}
                      </span>
                    </td>
                    <td className="row-actions">
                      <Link to={`/admin/coupons/${c.id}`} aria-label={`Edit ${c.code}`}>
                        Edit
                      </Link>
                      <Link to={`/admin/coupons/${c.id}?confirm=delete`} aria-label={`Delete ${c.code}`}>
                        Delete
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager page={page} noun="coupons" one="coupon" />
        <section className="card section-tight" aria-labelledby="new-coupon-heading">
          <h2 id="new-coupon-heading">Create a coupon</h2>
          {/* After a create (a redirect) the form starts empty; after a refusal it keeps what it holds. */}
          <CouponForm
            key={formKey}
            intent={INTENT.create}
            submitLabel="Create Coupon"
            lastResult={lastResult}
            rules={rules}
          />
        </section>
      </div>
    </>
  );
}
