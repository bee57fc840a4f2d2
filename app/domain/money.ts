/** Money is integer cents, AUD (ARCHITECTURE.md rule 6). */

// One formatter for every amount: toLocaleString with options builds a new one per call (the admin
// page formats hundreds of amounts per view).
const DOLLARS = new Intl.NumberFormat("en-AU", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Dollars for display: 30000 -> "$300.00". */
export function formatCents(cents: number): string {
  return `$${DOLLARS.format(cents / 100)}`;
}
