import type { LinksFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import adminStyles from "~/styles/admin.css";
import { KeptPostNotice, SessionEnds } from "./SessionTimeout";

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
