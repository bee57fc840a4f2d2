/** Dates as the business and its customers in NSW read them, whatever the server's time zone. */
const ZONE = "Australia/Sydney";

/** "Tue 24 Nov": for e-mails ("this link works until …"). */
export function formatDay(date: Date): string {
  return date.toLocaleDateString("en-AU", { timeZone: ZONE, weekday: "short", day: "numeric", month: "short" });
}

/** "24 Nov 2026, 3:05 pm": for admin tables. Formatted on the server, so pages read the same with or without JavaScript. */
export function formatDateTime(date: Date | string): string {
  return new Date(date).toLocaleString("en-AU", { timeZone: ZONE, day: "numeric", month: "short", year: "numeric", hour: "numeric", minute: "2-digit" });
}
