import { data, type ActionFunctionArgs } from "@remix-run/node";
import { ADMIN_SESSION_MESSAGES, STAY_SIGNED_IN } from "~/domain/admin/session";
import { requireAdmin } from "~/server/auth.server";
import { readForm } from "~/server/forms.server";
import { sessionEndsAt } from "~/server/session.server";

/** "Stay signed in" (components/admin/AdminTabs.tsx, SessionTimeout): the post itself extends the session; answers its new end. */
export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const form = await readForm(request);
  if (form.get("intent") !== STAY_SIGNED_IN) return new Response(ADMIN_SESSION_MESSAGES.unknownIntent, { status: 400 });
  return data({ endsAt: await sessionEndsAt(request) });
}
