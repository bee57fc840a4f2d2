import type { LinksFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { SESSION_WARNING_MS } from "~/domain/admin/session";
import type { SessionPhase } from "./SessionDialog";
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

/**
 * The warning before an idle admin session ends (WCAG 2.2.1): SESSION_WARNING_MS before the end the server gave
 * (read again after every load and post), an alert dialog (SessionDialog) takes the focus and offers "Stay signed
 * in"; past the end it says the session has ended. Without JavaScript the admin header's sentence says when the
 * session ends. The dialog's module is fetched once the page is idle, not with the page: the admin pages' script
 * budget (97 KB) is for what a page needs to be used.
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
  const [phase, setPhase] = useState<SessionPhase>("quiet");

  // Runs in the same commit as the timers' effect below: tests/e2e/admin-session.test.ts takes the dialog
  // module's request as the sign that the timers are set.
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1_000));
    idle(() => void loadDialog());
  }, []);

  useEffect(() => {
    // The server's clock may differ from this one: count what was left when the server answered.
    const end = Date.now() + (endsAt - serverNow);
    const at = (time: number, next: SessionPhase) => setTimeout(() => setPhase(next), Math.max(0, time - Date.now()));
    setPhase("quiet");
    const timers = [at(end - SESSION_WARNING_MS, "warning"), at(end, "ended")];
    return () => timers.forEach(clearTimeout);
  }, [endsAt, serverNow]);

  return (
    <Suspense fallback={null}>
      <SessionDialog phase={phase} words={words} />
    </Suspense>
  );
}

const loadDialog = () => import("./SessionDialog");
const SessionDialog = lazy(loadDialog);

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
