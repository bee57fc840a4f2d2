/** Dates as people here read them: Australian English, in the business's own time zone (NSW). */
export const BUSINESS_TIME_ZONE = "Australia/Sydney";

export function formatDateTime(value: Date | string): string {
  return new Date(value).toLocaleString("en-AU", { timeZone: BUSINESS_TIME_ZONE, dateStyle: "medium", timeStyle: "short" });
}

export function formatDate(value: Date | string): string {
  return new Date(value).toLocaleDateString("en-AU", { timeZone: BUSINESS_TIME_ZONE, dateStyle: "medium" });
}
