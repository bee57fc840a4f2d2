import { pingDb } from "~/server/db.server";

/** For uptime checks and the start scripts: 200 when the database answers, 503 when it does not. */
export async function loader() {
  const db = await pingDb();
  return Response.json(
    { ok: db, db: db ? "up" : "down" },
    { status: db ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
