/** Dates as people here read them: Australian English, in the business's own time zone (NSW). */
export const BUSINESS_TIME_ZONE = "Australia/Sydney";

export function formatDateTime(value: Date | string): string {
  return new Date(value).toLocaleString("en-AU", {
    timeZone: BUSINESS_TIME_ZONE,
    dateStyle: "medium",
    timeStyle: "short",
  });
}

export function formatDate(value: Date | string): string {
  return new Date(value).toLocaleDateString("en-AU", { timeZone: BUSINESS_TIME_ZONE, dateStyle: "medium" });
}

/** "Tue 24 Nov": for e-mails ("this link works until …"). */
export function formatDay(value: Date | string): string {
  return new Date(value).toLocaleDateString("en-AU", {
    timeZone: BUSINESS_TIME_ZONE,
    weekday: "short",
    day: "numeric",
    month: "short",
  });
}
