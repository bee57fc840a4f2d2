import type { ActionFunctionArgs } from "@remix-run/node";
import { isCronRequest, runCron } from "~/server/cron.server";
import { log } from "~/server/log.server";

const methodNotAllowed = () => new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });

/**
 * The scheduled job (docs/deploy.md, "The cron job": crontab line and systemd timer): smart reminders,
 * retention deletion and purges. Called by cron with the CRON_SECRET bearer
 * token; answers a JSON summary, 503 when a part failed (cron should retry).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  if (!isCronRequest(request)) {
    log("warn", "cron.unauthorized", { has_header: request.headers.has("authorization") });
    return new Response("Unauthorized", { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
  }
  const summary = await runCron();
  return Response.json(summary, { status: summary.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return methodNotAllowed();
}
