import type { LinksFunction } from "@remix-run/node";
import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { SESSION_WARNING_MS, STAY_SIGNED_IN } from "~/domain/admin/session";
import adminStyles from "~/styles/admin.css";
import { useAdminSession, type AdminSessionWords } from "./session-data";

/** Every admin route exports this as its `links`: the admin stylesheet loads on admin pages only. */
export const adminLinks: LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

/** The admin area's tabs, each a URL. Adding a tab is one line here. */
export const ADMIN_TABS = [
  { id: "orders", to: "/admin", label: "Orders" },
  { id: "coupons", to: "/admin/coupons", label: "Coupons" },
  { id: "privacy", to: "/admin/privacy", label: "Privacy" },
  { id: "payments", to: "/admin/payments", label: "Payments" },
  { id: "outbox", to: "/admin/outbox", label: "Outbox" },
  { id: "security", to: "/admin/security", label: "Security" },
] as const;

export type AdminTab = (typeof ADMIN_TABS)[number]["id"];

/** Every admin page's heading and tab bar; the order detail counts as the Orders tab. */
export function AdminHeader({
  title,
  current,
  lead,
  children,
}: {
  title: string;
  current: AdminTab;
  lead?: string;
  children?: ReactNode;
}) {
  return (
    <section className="admin-hero">
      <div className="wrap">
        <h1>{title}</h1>
        {lead ? <p className="lead">{lead}</p> : null}
        <KeptPostNotice />
        {children}
        <nav aria-label="Admin sections" className="admin-tabs">
          {ADMIN_TABS.map((tab) => (
            <Link
              key={tab.id}
              to={tab.to}
              className={tab.id === current ? "admin-tab active" : "admin-tab"}
              aria-current={tab.id === current ? "page" : undefined}
            >
              {tab.label}
            </Link>
          ))}
        </nav>
        <SessionEnds />
      </div>
    </section>
  );
}

/** Sub-tabs inside a page (order detail, privacy): links that change the query string. */
export function SubTabs({
  label,
  tabs,
  current,
}: {
  label: string;
  tabs: { id: string; label: string; href: string }[];
  current: string;
}) {
  return (
    <nav aria-label={label} className="sub-tabs">
      {tabs.map((t) => (
        <a
          key={t.id}
          href={t.href}
          className={t.id === current ? "sub-tab active" : "sub-tab"}
          aria-current={t.id === current ? "page" : undefined}
        >
          {t.label}
        </a>
      ))}
    </nav>
  );
}

export function StatusBadge({ text, tone }: { text: string; tone: string }) {
  return <span className={`status status-${tone}`}>{text}</span>;
}

// The admin session's end, told and warned of: here, beside the header every admin page has,
// so the admin pages load no module more for it (their 97 KB script budget).

/**
 * The warning before an idle admin session ends (WCAG 2.2.1): SESSION_WARNING_MS before the end the server gave
 * (read again after every load and post), an alert dialog takes the focus and offers "Stay signed in", which posts
 * to /admin/session; the answer's new end closes it and the focus goes back where it was. Past the end it says
 * the session has ended. Without JavaScript the admin header's sentence says when the session ends.
 */
export function SessionTimeout({
  endsAt,
  serverNow,
  words,
}: {
  endsAt: number;
  serverNow: number;
  words: AdminSessionWords;
}) {
  const fetcher = useFetcher();
  const [phase, setPhase] = useState<"quiet" | "warning" | "ended">("quiet");
  const button = useRef<HTMLButtonElement>(null);
  const before = useRef<HTMLElement | null>(null);

  useEffect(() => {
    // The server's clock may differ from this one: count what was left when the server answered.
    const end = Date.now() + (endsAt - serverNow);
    const at = (time: number, next: "warning" | "ended") =>
      setTimeout(() => setPhase(next), Math.max(0, time - Date.now()));
    setPhase("quiet");
    const timers = [at(end - SESSION_WARNING_MS, "warning"), at(end, "ended")];
    return () => timers.forEach(clearTimeout);
  }, [endsAt, serverNow]);

  useEffect(() => {
    if (phase === "warning" && document.activeElement !== button.current) {
      before.current = document.activeElement as HTMLElement | null;
      button.current?.focus();
    } else if (phase === "quiet" && before.current) {
      before.current.focus();
      before.current = null;
    }
  }, [phase]);

  if (phase === "quiet") return null;
  return (
    <div
      role="alertdialog"
      aria-labelledby="session-timeout-title"
      aria-describedby="session-timeout-text"
      className="session-timeout"
    >
      <h2 id="session-timeout-title">{words.title}</h2>
      <p id="session-timeout-text">{phase === "warning" ? words.warning : words.ended}</p>
      {phase === "warning" ? (
        <fetcher.Form method="post" action="/admin/session">
          <button
            ref={button}
            type="submit"
            name="intent"
            value={STAY_SIGNED_IN}
            className="button button-primary"
            disabled={fetcher.state !== "idle"}
          >
            {words.stay}
          </button>
        </fetcher.Form>
      ) : null}
    </div>
  );
}

/** The admin header's plain sentence: when the session ends if left idle (shown with and without JavaScript). */
export function SessionEnds() {
  const session = useAdminSession();
  return session?.words.endsAt ? <p className="session-ends">{session.words.endsAt}</p> : null;
}

/** The notice over a form filled from a post kept when the session ended; it stays until the page is left. */
export function KeptPostNotice() {
  const session = useAdminSession();
  const [kept] = useState(session?.kept ? session.words.kept : null);
  return kept ? (
    <p className="kept-notice" role="alert">
      {kept}
    </p>
  ) : null;
}
