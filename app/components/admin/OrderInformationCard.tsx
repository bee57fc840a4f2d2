import { Link } from "@remix-run/react";
import { EmailAddress } from "~/components/EmailAddress";
import { StatusBadge } from "~/components/admin/AdminTabs";
import { formatDateTime } from "~/domain/dates";
import { adminStatusTone } from "~/domain/order-status";
import type { ReceiptView } from "~/domain/receipt";

export type OrderInformation = {
  id: string;
  shortId: string;
  email: string;
  guest: boolean;
  status: string;
  statusText: string;
  amount: string;
  createdAt: string;
  productName: string;
  paymentIntentId: string | null;
  dataDeleted: boolean;
};

/** What was sold, as the customer's receipt reads it (domain/receipt.ts `receiptView`): one description of it. */
export type SoldSummary = Pick<ReceiptView, "rows" | "total">;

/** The order page's first two cards: who bought, when and how it stands; then what was sold, at the prices charged. */
export function OrderInformationCard({ order, sold }: { order: OrderInformation; sold: SoldSummary }) {
  return (
    <>
      <section className="card" aria-labelledby="info-heading">
        <h2 id="info-heading">Order Information</h2>
        <dl className="facts">
          <dt>Email</dt>
          <dd>
            <EmailAddress address={order.email} />
          </dd>
          <dt>Amount</dt>
          <dd>{order.amount}</dd>
          <dt>Status</dt>
          <dd>
            <StatusBadge text={order.statusText} tone={adminStatusTone(order.status)} />{" "}
            {order.guest ? <span className="badge badge-muted">Guest</span> : null}
          </dd>
          <dt>Created</dt>
          <dd>{formatDateTime(order.createdAt)}</dd>
          <dt>Product</dt>
          <dd>{order.productName}</dd>
          {order.paymentIntentId ? (
            <>
              <dt>Payment intent</dt>
              <dd className="mono">{order.paymentIntentId}</dd>
            </>
          ) : null}
        </dl>
        {order.dataDeleted ? (
          <p className="banner">This customer's personal data was deleted; only the financial record remains.</p>
        ) : (
          <p>
            <Link to={`/admin/privacy/delete/${order.id}`}>Delete this customer's data</Link>
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="sold-heading">
        <h2 id="sold-heading">What Was Sold</h2>
        <table className="data-table sold">
          <caption className="visually-hidden">What order #{order.shortId} bought, at the prices charged</caption>
          <tbody>
            {sold.rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                <td>{row.amount}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">{sold.total.label}</th>
              <td>
                <strong>{sold.total.amount}</strong>
              </td>
            </tr>
          </tbody>
        </table>
      </section>
    </>
  );
}
