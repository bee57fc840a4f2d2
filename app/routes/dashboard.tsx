import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DataExportButton } from "~/components/DataExportButton";
import { PageHero } from "~/components/PageHero";
import { requireUser } from "~/server/auth.server";
import { exportableOrders } from "~/server/data-export.server";

export const meta: MetaFunction = () => [{ title: "Dashboard | 24-Hour Website" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { email: user.email, orders: await exportableOrders(user.id) };
}

export default function Dashboard() {
  const { email, orders } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHero title="Dashboard" lead={`Signed in as ${email}`} />
      {orders.length ? (
        <div className="wrap section">
          <h2>Your orders</h2>
          <ul className="card-list">
            {orders.map((o) => (
              <li key={o.id} className="card">
                <p>Order #{o.label}</p>
                <DataExportButton action={`/dashboard/orders/${o.id}/export`} orderLabel={o.label} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}
