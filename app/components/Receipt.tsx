import type { ReceiptView } from "~/domain/receipt";

/**
 * The customer's receipt: seller and ABN, date, order number, each item with its price, the
 * coupon and its discount, and the total in AUD. The payment e-mail says the same (domain/receipt.ts).
 */
export function Receipt({ receipt, heading: Heading = "h3" }: { receipt: ReceiptView; heading?: "h2" | "h3" }) {
  const id = `receipt-${receipt.orderNumber.slice(1)}`;
  return (
    <section className="receipt" aria-labelledby={id}>
      <Heading id={id}>{receipt.title}</Heading>
      <p>
        {receipt.seller}, {receipt.abn}
      </p>
      <dl className="facts">
        <dt>Date</dt>
        <dd>{receipt.date}</dd>
        <dt>Order number</dt>
        <dd>{receipt.orderNumber}</dd>
      </dl>
      <table className="receipt-items">
        <caption className="visually-hidden">What you paid for, order {receipt.orderNumber}</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Amount</th>
          </tr>
        </thead>
        <tbody>
          {receipt.rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              <td>{row.amount}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{receipt.total.label}</th>
            <td>{receipt.total.amount}</td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}
