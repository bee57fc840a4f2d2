/** Money is integer cents, AUD (ARCHITECTURE.md rule 6). */

// One formatter for every amount: toLocaleString with options builds a new one per call (the admin
// page formats hundreds of amounts per view).
const DOLLARS = new Intl.NumberFormat("en-AU", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const WHOLE_DOLLARS = new Intl.NumberFormat("en-AU", { maximumFractionDigits: 0 });

/** Whole dollars, rounded, for a chart's labels: 123456 -> "$1,235". */
export function formatWholeDollars(cents: number): string {
  return `$${WHOLE_DOLLARS.format(Math.round(cents / 100))}`;
}

/** Dollars for display: 30000 -> "$300.00". */
export function formatCents(cents: number): string {
  return `$${DOLLARS.format(cents / 100)}`;
}
