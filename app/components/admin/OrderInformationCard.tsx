import { Link } from "@remix-run/react";
import { EmailAddress } from "~/components/EmailAddress";
import { StatusBadge } from "~/components/admin/AdminTabs";
import { formatDateTime } from "~/domain/dates";
import { adminStatusTone } from "~/domain/order-status";

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

export type SoldSummary = {
  items: { name: string; amount: string }[];
  couponCode: string | null;
  discount: string | null;
  total: string;
};

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
            {sold.items.map((item) => (
              <tr key={item.name}>
                <th scope="row">{item.name}</th>
                <td>{item.amount}</td>
              </tr>
            ))}
            {sold.couponCode ? (
              <tr>
                <th scope="row">Coupon {sold.couponCode}</th>
                <td>-{sold.discount ?? "$0.00"}</td>
              </tr>
            ) : null}
            <tr>
              <th scope="row">Total paid</th>
              <td>
                <strong>{sold.total}</strong>
              </td>
            </tr>
          </tbody>
        </table>
      </section>
    </>
  );
}
