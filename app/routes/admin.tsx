import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { SessionTimeout } from "~/components/admin/AdminTabs";
import { ADMIN_SESSION_MESSAGES as WORDS } from "~/domain/admin/session";
import { takeKeptPost } from "~/server/admin/kept-posts.server";
import { requireAdmin } from "~/server/auth.server";
import { sessionEndsAt } from "~/server/session.server";

/**
 * Around every admin page: when the admin session ends if left idle (told on the page, and warned of before it
 * ends, WCAG 2.2.1), and the post kept when it ended, for this page's form. Each child protects itself too.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  const [endsAt, { kept, setCookie }] = await Promise.all([sessionEndsAt(request), takeKeptPost(request, user.id)]);
  // The words go with the data, so the admin pages' script does not carry them (the 97 KB budget).
  const words = {
    endsAt: endsAt ? WORDS.endsAt(endsAt) : null,
    kept: WORDS.kept,
    title: WORDS.warningTitle,
    warning: WORDS.warning,
    ended: WORDS.ended,
    stay: WORDS.stay,
  };
  return data(
    { endsAt, serverNow: Date.now(), kept, words },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}

// Every page load and post extends the session: the deadline is read again after each.
export const shouldRevalidate = () => true;

export default function AdminLayout() {
  const { endsAt, serverNow, words } = useLoaderData<typeof loader>();
  return (
    <>
      <Outlet />
      {endsAt ? <SessionTimeout endsAt={endsAt} serverNow={serverNow} words={words} /> : null}
    </>
  );
}
