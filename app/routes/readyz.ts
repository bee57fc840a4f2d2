import { checkReadiness } from "~/server/readiness.server";

/**
 * For the proxy and a monitor: 200 when the database, the mail server and the bucket all answer now, 503
 * naming the part that does not. /healthz says only that the process answers.
 */
export async function loader() {
  const ready = await checkReadiness();
  return Response.json(ready, { status: ready.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
