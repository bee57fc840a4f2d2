import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { adminLinks, AdminHeader } from "~/components/admin/AdminTabs";
import { describeDevice, SESSION_MESSAGES } from "~/domain/admin/security";
import { formatDateTime } from "~/domain/dates";
import { listAdmins } from "~/server/admin/security.server";
import { requireAdmin, signInState, signOut } from "~/server/auth.server";
import { redirectWithFlash } from "~/server/flash.server";
import { readForm } from "~/server/forms.server";
import { log } from "~/server/log.server";
import { endSessionByHandle, listSessions } from "~/server/session.server";

export const links = adminLinks;

export const meta: MetaFunction = () => [{ title: "Security | Admin" }, { name: "robots", content: "noindex" }];

const INTENT = { endSession: "end-session" } as const;

/** /admin/security: where this admin is signed in (end any session), and the admins' second factors. */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const state = await signInState(request);
  const currentId = state.kind === "signed-in" ? state.sessionId : undefined;
  const [sessions, admins] = await Promise.all([listSessions(admin.id, currentId), listAdmins()]);
  return {
    me: admin.id,
    sessions: sessions.map((s) => ({
      ...s,
      device: describeDevice(s.userAgent),
      started: formatDateTime(s.startedAt),
      lastSeen: formatDateTime(s.lastSeenAt),
    })),
    admins: admins.map((a) => ({ ...a, since: a.twoFactorSince ? formatDateTime(a.twoFactorSince) : null })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  if (form.get("intent") !== INTENT.endSession) return new Response("Unknown intent", { status: 400 });
  const handle = String(form.get("session") ?? "").slice(0, 40);
  const state = await signInState(request);
  const current = state.kind === "signed-in" ? state.sessionId : undefined;
  const mine = await listSessions(admin.id, current);
  const target = mine.find((s) => s.handle === handle);
  if (!target || !(await endSessionByHandle(admin.id, handle)))
    return redirectWithFlash(
      request,
      "/admin/security",
      { kind: "info", title: SESSION_MESSAGES.alreadyEnded },
      { status: 303 },
    );
  log("info", "admin.session_ended", { user_id: admin.id, own: target.current });
  if (target.current) return signOut(request, "/auth");
  return redirectWithFlash(
    request,
    "/admin/security",
    { kind: "success", ...SESSION_MESSAGES.ended(describeDevice(target.userAgent)) },
    { status: 303 },
  );
}

export default function AdminSecurity() {
  const { sessions, admins, me } = useLoaderData<typeof loader>();
  return (
    <>
      <AdminHeader
        title="Security"
        current="security"
        lead="Where you are signed in, and the admins' two-factor sign-in. Admin sessions end after 30 minutes unused or 12 hours."
      />
      <div className="wrap section admin-page">
        <section aria-labelledby="sessions-heading">
          <h2 id="sessions-heading">Your sessions</h2>
          <ul className="card-list">
            {sessions.map((s) => (
              <li key={s.handle} className="card">
                <p>
                  <strong>{s.device}</strong>
                  {s.current ? <span className="badge">This browser</span> : null}
                  {s.secondFactor ? null : <span className="badge badge-muted">Code not entered</span>}
                </p>
                <p className="hint">
                  From {s.address || "an unknown address"}. Signed in {s.started}; last active {s.lastSeen}.
                </p>
                {s.userAgent ? <p className="hint mono">{s.userAgent}</p> : null}
                <Form method="post">
                  <input type="hidden" name="session" value={s.handle} />
                  <button type="submit" name="intent" value={INTENT.endSession} className="button button-small">
                    {s.current ? "Sign out here" : "End this session"}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="admins-heading">
          <h2 id="admins-heading">Admins' two-factor sign-in</h2>
          <p>
            An admin who lost their phone and recovery codes can have their second factor reset here by another admin;
            they set it up again at their next sign-in. The last admin resets their own on the server:{" "}
            <code>npm run two-factor -- reset their@address</code>.
          </p>
          <ul className="card-list">
            {admins.map((a) => (
              <li key={a.id} className="card">
                <p>
                  <strong>{a.email}</strong> {a.id === me ? <span className="badge">You</span> : null}
                </p>
                <p className="hint">{a.since ? `Set up ${a.since}` : "Not set up yet (asked at next sign-in)"}</p>
                {a.id !== me && a.since ? (
                  <Link to={`/admin/security/reset/${a.id}`} className="button button-small">
                    Reset second factor of {a.email}
                  </Link>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      </div>
    </>
  );
}
