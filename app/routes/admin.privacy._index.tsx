import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { shortId } from "~/domain/orders";
import { Link, useLoaderData } from "@remix-run/react";
import { formatDateTime } from "~/domain/dates";
import { adminLinks, AdminHeader, SubTabs } from "~/components/admin/AdminTabs";
import { Pager } from "~/components/admin/Pager";
import { cursorParam } from "~/domain/paging";
import { deletionRequests, privacyAuditLog, privacyCounters } from "~/server/admin/privacy.server";
import { requireAdmin } from "~/server/auth.server";

export const links = adminLinks;

export const meta: MetaFunction = () => [{ title: "Privacy | Admin" }, { name: "robots", content: "noindex" }];

const TABS = [
  { id: "audit", label: "Audit Log" },
  { id: "deletions", label: "Deletion Requests" },
] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const tab = params.get("tab") === "deletions" ? "deletions" : "audit";
  const cursor = cursorParam(params);
  const [counters, audit, requests] = await Promise.all([
    privacyCounters(),
    tab === "audit" ? privacyAuditLog({ cursor }) : Promise.resolve(null),
    tab === "deletions" ? deletionRequests({ cursor }) : Promise.resolve(null),
  ]);
  return { tab, counters, audit, requests } as const;
}

export default function AdminPrivacy() {
  const { tab, counters, audit, requests } = useLoaderData<typeof loader>();
  const cards = [
    { label: "Total Consents", value: counters.consents },
    { label: "AI Processing Enabled", value: counters.aiEnabled },
    { label: "AI Declined (Built by Hand)", value: counters.aiDeclined },
    { label: "Deletion Requests", value: counters.deletionRequests },
    { label: "AI Processing (24h)", value: counters.ai24h },
  ];
  return (
    <>
      <AdminHeader title="Admin Panel" current="privacy" />
      <div className="wrap section admin-page">
        <h2 className="visually-hidden">Privacy counters</h2>
        <ul className="stat-grid" aria-label="Privacy counters">
          {cards.map((c) => (
            <li key={c.label} className="card stat">
              <span className="stat-label">{c.label}</span>
              <strong className="stat-value">{c.value}</strong>
            </li>
          ))}
        </ul>
        <SubTabs
          label="Privacy records"
          current={tab}
          tabs={TABS.map((t) => ({ ...t, href: `/admin/privacy?tab=${t.id}` }))}
        />
        {tab === "audit" && audit ? (
          audit.rows.length === 0 ? (
            <p className="empty card">No audit logs yet</p>
          ) : (
            <div className="table-scroll">
              <table className="data-table">
                <caption className="visually-hidden">
                  {audit.first ? "Latest privacy audit entries" : "Older privacy audit entries"}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Timestamp</th>
                    <th scope="col">Action</th>
                    <th scope="col">Privacy Level</th>
                    <th scope="col">Order ID</th>
                    <th scope="col">AI Provider</th>
                  </tr>
                </thead>
                <tbody>
                  {audit.rows.map((a) => (
                    <tr key={a.id}>
                      <td>{formatDateTime(a.timestamp)}</td>
                      <td>{a.action}</td>
                      <td>{a.privacyLevel}</td>
                      <td className="mono">
                        {a.orderId ? <Link to={`/admin/orders/${a.orderId}`}>{shortId(a.orderId)}</Link> : "-"}
                      </td>
                      <td>{a.aiProvider ?? "-"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        ) : null}
        {tab === "audit" && audit ? <Pager page={audit} noun="audit entries" one="audit entry" /> : null}
        {tab === "deletions" && requests ? (
          requests.rows.length === 0 ? (
            <p className="empty card">No pending deletion requests</p>
          ) : (
            <div className="table-scroll">
              <table className="data-table">
                <caption className="visually-hidden">Pending deletion requests</caption>
                <thead>
                  <tr>
                    <th scope="col">Business Name</th>
                    <th scope="col">Email</th>
                    <th scope="col">Requested Date</th>
                    <th scope="col">Action</th>
                  </tr>
                </thead>
                <tbody>
                  {requests.rows.map((r) => (
                    <tr key={r.orderId}>
                      <td>{r.businessName ?? "-"}</td>
                      <td>{r.email ?? "-"}</td>
                      <td>{r.requestedAt ? formatDateTime(r.requestedAt) : "-"}</td>
                      <td>
                        <Link
                          to={`/admin/privacy/delete/${r.orderId}`}
                          aria-label={`Delete data for ${r.businessName ?? shortId(r.orderId)}`}
                        >
                          Delete Data
                        </Link>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        ) : null}
        {tab === "deletions" && requests ? (
          <Pager page={requests} noun="deletion requests" one="deletion request" />
        ) : null}
      </div>
    </>
  );
}
