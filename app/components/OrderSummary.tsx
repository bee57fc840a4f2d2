import { formatCents } from "~/domain/money";
import type { Quote } from "~/domain/pricing";

/** The order summary beside checkout: what is bought, each price, the discount and the total. */
export function OrderSummary({ quote }: { quote: Quote }) {
  const coupon = quote.coupon;
  return (
    <section className="card summary" aria-labelledby="summary-heading">
      <h2 id="summary-heading">Order Summary</h2>
      <p className="summary-product">{quote.product.name}</p>
      <ul className="checklist">
        {quote.product.includes.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <dl className="summary-lines">
        {quote.product.compareAt ? (
          <div>
            <dt>Industry average</dt>
            <dd>
              <s className="strike">{quote.product.compareAt}</s>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{quote.product.name}</dt>
          <dd>{formatCents(quote.product.price)}</dd>
        </div>
        {quote.addOns.map((a) => (
          <div key={a.id}>
            <dt>{a.name}</dt>
            <dd>{formatCents(a.price)}</dd>
          </div>
        ))}
        {quote.maintenance ? (
          <div>
            <dt>
              {quote.maintenance.name}
              <br />
              <span className="hint">then {formatCents(quote.maintenance.price)} a month; cancel any time</span>
            </dt>
            <dd>{formatCents(quote.maintenance.price)}</dd>
          </div>
        ) : null}
        {coupon ? (
          <div className="summary-discount">
            <dt>
              Discount ({coupon.code}
              {coupon.discount_type === "percentage" ? `, ${coupon.discount_value}% off` : ""})
            </dt>
            <dd>-{formatCents(quote.discount)}</dd>
          </div>
        ) : null}
        <div className="summary-total">
          <dt>Total (AUD)</dt>
          <dd>
            <output aria-live="polite">{formatCents(quote.total)}</output>
          </dd>
        </div>
      </dl>
    </section>
  );
}
