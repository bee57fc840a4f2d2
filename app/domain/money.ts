/** Money is integer cents, AUD (ARCHITECTURE.md rule 6). */

/** Dollars for display: 30000 -> "$300.00". */
export function formatCents(cents: number): string {
  return `$${(cents / 100).toLocaleString("en-AU", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
