type Level = "debug" | "info" | "warn" | "error";

const SECRET_KEYS = /token|password|secret|authorization|cookie|card|session_id/i;

/** Drops any field whose name suggests a secret, so logs never carry tokens, passwords or card data. */
function redact(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, SECRET_KEYS.test(k) ? "[redacted]" : v]));
}

/** Structured log line: one JSON object per event, on stdout (errors on stderr). */
export function log(level: Level, event: string, fields: Record<string, unknown> = {}) {
  if (process.env.NODE_ENV === "test" && level === "debug") return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...redact(fields) });
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}

/** The message of anything thrown, for a log line or a reply. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
