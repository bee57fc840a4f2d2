/**
 * Every date a person reads (pages, e-mails, the CSV's readable columns) is formatted here: Australian
 * English, in the business's own time zone (NSW), whatever zone the server or the browser runs in.
 * Stored and exported dates stay UTC ISO (`toISOString()`); nothing else in the app formats a date.
 */
export const BUSINESS_TIME_ZONE = "Australia/Sydney";

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

type DateInput = Date | string | number;

const formatters = {
  // "23 Nov 2026"
  date: new Intl.DateTimeFormat("en-AU", {
    timeZone: BUSINESS_TIME_ZONE,
    day: "numeric",
    month: "short",
    year: "numeric",
  }),
  // "24 Nov 2026, 2:48 am"
  dateTime: new Intl.DateTimeFormat("en-AU", {
    timeZone: BUSINESS_TIME_ZONE,
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
  }),
  // "Tue, 24 Nov"
  day: new Intl.DateTimeFormat("en-AU", {
    timeZone: BUSINESS_TIME_ZONE,
    weekday: "short",
    day: "numeric",
    month: "short",
  }),
  // "24 Nov"
  dayMonth: new Intl.DateTimeFormat("en-AU", { timeZone: BUSINESS_TIME_ZONE, day: "numeric", month: "short" }),
  // "2:48 pm"
  time: new Intl.DateTimeFormat("en-AU", { timeZone: BUSINESS_TIME_ZONE, hour: "numeric", minute: "2-digit" }),
  // "Tue 25 Nov, 3:00 pm", assembled from its parts by formatDeadline
  deadline: new Intl.DateTimeFormat("en-AU", {
    timeZone: BUSINESS_TIME_ZONE,
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "numeric",
    minute: "2-digit",
    hour12: true,
  }),
  parts: new Intl.DateTimeFormat("en-AU", {
    timeZone: BUSINESS_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }),
};

/** "23 Nov 2026", "1 July 2026" (Sydney, en-AU month names): the day an order was placed, a link expires, a coupon ends. */
export const formatDate = (value: DateInput) => formatters.date.format(new Date(value));

/** "24 Nov 2026, 2:48 am" (Sydney). */
export const formatDateTime = (value: DateInput) => formatters.dateTime.format(new Date(value));

/** "Tue, 24 Nov" (Sydney): for e-mails ("this link works until …"). */
export const formatDay = (value: DateInput) => formatters.day.format(new Date(value));

/** "24 Nov" (Sydney): chart axes. */
export const formatDayMonth = (value: DateInput) => formatters.dayMonth.format(new Date(value));

/** "2:48 pm" (Sydney): "Saved at …". */
export const formatTime = (value: DateInput) => formatters.time.format(new Date(value));

/** "Tue 25 Nov, 3:00 pm" (Sydney): a first draft's deadline ("Your first draft is due by …"). */
export function formatDeadline(value: DateInput): string {
  const p = Object.fromEntries(formatters.deadline.formatToParts(new Date(value)).map((x) => [x.type, x.value]));
  return `${p.weekday} ${p.day} ${p.month}, ${p.hour}:${p.minute} ${String(p.dayPeriod).toLowerCase()}`;
}

/** The wall clock in Sydney at an instant, as numbers. */
function sydneyParts(at: Date) {
  const p = Object.fromEntries(formatters.parts.formatToParts(at).map((x) => [x.type, x.value]));
  return { year: +p.year, month: +p.month, day: +p.day, hour: +p.hour % 24, minute: +p.minute, second: +p.second };
}

/** How far Sydney's wall clock is ahead of UTC at an instant, in ms (10 h or 11 h in daylight saving). */
function sydneyOffset(at: Date): number {
  const p = sydneyParts(at);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant Sydney's wall clock reads this date and time (the offset of that moment, DST included). */
export function sydneyWallTimeToInstant(year: number, month: number, day: number, hour = 0, min = 0, sec = 0, ms = 0) {
  const wall = Date.UTC(year, month - 1, day, hour, min, sec, ms);
  // First guess with the offset at that wall time read as UTC, then correct once for a DST change in between.
  let instant = wall - sydneyOffset(new Date(wall));
  instant = wall - sydneyOffset(new Date(instant));
  return new Date(instant);
}

/** The latest instant at or before `at` when Sydney's wall clock read `hour` o'clock (that day's, else the day before's). */
export function lastSydneyHour(at: Date, hour: number): Date {
  const p = sydneyParts(at);
  const that = sydneyWallTimeToInstant(p.year, p.month, p.day, hour);
  return that <= at ? that : sydneyWallTimeToInstant(p.year, p.month, p.day - 1, hour);
}

/** "2026-12-31" → the last millisecond of that day in Sydney (a typed "valid until" date means its whole day). */
export function endOfSydneyDay(ymd: string): Date {
  const [y, m, d] = ymd.split("-").map(Number);
  const nextMidnight = sydneyWallTimeToInstant(y, m, d + 1);
  return new Date(nextMidnight.getTime() - 1);
}

/** Midnight starting the Sydney day that contains `at`. */
export function startOfSydneyDay(at: Date): Date {
  const p = sydneyParts(at);
  return sydneyWallTimeToInstant(p.year, p.month, p.day);
}

/** The year in Sydney at an instant (the footer's "© 2027" from 11 am UTC on 31 Dec). */
export const sydneyYear = (at: Date = new Date()) => sydneyParts(at).year;

/** The Sydney date of an instant as `YYYY-MM-DD`, for a date input's value. */
export function sydneyDateInput(value: DateInput): string {
  const p = sydneyParts(new Date(value));
  return `${p.year}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`;
}
