import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useRef } from "react";
import { adminLinks, AdminHeader, StatusBadge } from "~/components/admin/AdminTabs";
import { Pager } from "~/components/admin/Pager";
import { WeeklyChart } from "~/components/admin/WeeklyChart";
import { useIsPending } from "~/components/hooks";
import { FormKey } from "~/components/forms";
import { EmailAddress } from "~/components/EmailAddress";
import { LiveRegion } from "~/components/LiveRegion";
import {
  BULK_ACTION_LABELS,
  BULK_ACTIONS,
  BULK_MESSAGES,
  bulkReturnQuery,
  isBulkAction,
  needsFreshProof,
} from "~/domain/admin/bulk";
import {
  DATE_FILTERS,
  filterQuery,
  hasActiveFilters,
  CLOCK_FILTER_LABELS,
  CLOCK_FILTERS,
} from "~/domain/admin/order-filters";
import { BulkSchema, keptBulk } from "~/domain/admin/bulk.schema";
import { OrderFiltersSchema, parseOrderFilters } from "~/domain/admin/order-filters.schema";
import { formatDateTime } from "~/domain/dates";
import { cursorParam } from "~/domain/paging";
import { ORDER_STATUSES, statusText } from "~/domain/order-status";
import { bulkTargets, ordersPage, runBulkAction } from "~/server/admin/orders.server";
import { requireAdmin, requireFreshProof } from "~/server/auth.server";
import { readForm } from "~/server/forms.server";
import { oncePerPost } from "~/server/form-keys.server";
import { redirectWithFlash } from "~/server/flash.server";
import { errorMessage, log } from "~/server/log.server";
import { countOf } from "~/domain/words";

export const links = adminLinks;

export const meta: MetaFunction = () => [{ title: "Orders | Admin" }, { name: "robots", content: "noindex" }];

const INTENT = { bulk: "bulk" } as const;

const DATE_LABELS: Record<(typeof DATE_FILTERS)[number], string> = {
  today: "Today",
  week: "Last 7 days",
  month: "Last month",
  quarter: "Last 3 months",
};

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const filters = parseOrderFilters(params);
  const data = await ordersPage(filters, { cursor: cursorParam(params) });
  // Back from the code page: the bulk form as it was posted (bulkReturnQuery).
  return { filters, ...data, kept: keptBulk(params), before: params.get("before") };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const filters = OrderFiltersSchema.parse({
    q: form.get("q") ?? undefined,
    status: form.get("status") ?? undefined,
    date: form.get("date") ?? undefined,
    clock: form.get("clock") ?? undefined,
    sort: form.get("sort") ?? undefined,
  });
  const back = `/admin${filterQuery(filters)}`;
  const fail = (title: string) => redirectWithFlash(request, back, { kind: "error", title }, { status: 303 });

  if (form.get("intent") !== INTENT.bulk) return new Response("Unknown intent", { status: 400 });
  const parsed = BulkSchema.safeParse({
    action: form.get("action") ?? undefined,
    orderIds: form.getAll("orderIds"),
    all: form.get("all") ?? undefined,
  });
  if (!parsed.success) return fail(BULK_MESSAGES.noneSelected);
  const { action, orderIds, all } = parsed.data;
  if (!action) return fail(BULK_MESSAGES.noAction);
  if (!isBulkAction(action)) return fail(BULK_MESSAGES.invalid);
  if (needsFreshProof(action)) {
    const before = String(form.get("before") ?? "").slice(0, 200) || null;
    await requireFreshProof(
      request,
      `/admin${bulkReturnQuery(filterQuery(filters), { action, orderIds, all, before })}`,
    );
  }
  const ids = await bulkTargets({ orderIds, all, filters });
  if (ids === "too-many") return fail(BULK_MESSAGES.tooMany);
  if (ids.length === 0) return fail(BULK_MESSAGES.noneSelected);
  try {
    // A resent press (its answer lost) is answered as the first was: "2 reminders sent", not "0 sent".
    const message = await oncePerPost(`bulk:${admin.id}`, form, async () => ({
      done: true,
      answer: await runBulkAction(action, ids, admin),
    }));
    return redirectWithFlash(request, back, { kind: "success", title: message }, { status: 303 });
  } catch (error) {
    log("error", "admin.bulk_failed", { action, reason: errorMessage(error) });
    return fail(BULK_MESSAGES.failed);
  }
}

export default function AdminOrders() {
  const { filters, page, total, anyOrders, cards, trendBasis, weeks, kept, before } = useLoaderData<typeof loader>();
  const rows = page.rows;
  const busy = useIsPending();
  const active = hasActiveFilters(filters);
  const listRef = useRef<HTMLUListElement>(null);
  const toggleAll = (checked: boolean) =>
    listRef.current
      ?.querySelectorAll<HTMLInputElement>('input[name="orderIds"]')
      .forEach((box) => (box.checked = checked));

  return (
    <>
      <AdminHeader title="Admin Panel" current="orders" />
      <div className="wrap section admin-page">
        <h2 className="visually-hidden">Summary</h2>
        <ul className="stat-grid" aria-label="Summary" aria-describedby="trend-basis">
          {cards.map((c) => (
            <li key={c.label} className="card stat">
              <span className="stat-label">{c.label}</span>
              <strong className="stat-value">{c.value}</strong>
              <span className="stat-trend">{c.trend}</span>
              <span className="hint">{c.hint}</span>
            </li>
          ))}
        </ul>
        <p id="trend-basis" className="hint stat-basis">
          {trendBasis}
        </p>
        <WeeklyChart weeks={weeks} />

        <h2 id="orders-heading">Orders</h2>
        {/* Keyed by the filters: after Reset Filters (or any change) with JavaScript, the fields show
            what is applied, not what was typed before (uncontrolled inputs keep their old text). */}
        <Form method="get" className="filters" aria-label="Filter orders" key={filterQuery(filters)}>
          <div className="field">
            <label htmlFor="q">Search</label>
            <input
              id="q"
              name="q"
              type="search"
              defaultValue={filters.q ?? ""}
              placeholder="Search by email, order ID..."
              maxLength={100}
            />
          </div>
          <div className="field">
            <label htmlFor="status">Status</label>
            <select id="status" name="status" defaultValue={filters.status ?? ""}>
              <option value="">All statuses</option>
              {ORDER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {statusText(s)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="date">Date</label>
            <select id="date" name="date" defaultValue={filters.date ?? ""}>
              <option value="">All time</option>
              {DATE_FILTERS.map((d) => (
                <option key={d} value={d}>
                  {DATE_LABELS[d]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="clock">Delivery</label>
            <select id="clock" name="clock" defaultValue={filters.clock ?? ""}>
              <option value="">Any deadline</option>
              {CLOCK_FILTERS.map((c) => (
                <option key={c} value={c}>
                  {CLOCK_FILTER_LABELS[c]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="sort">Sort</label>
            <select id="sort" name="sort" defaultValue={filters.sort ?? ""}>
              <option value="">Newest first</option>
              <option value="deadline">Deadline, soonest first</option>
            </select>
          </div>
          <div className="filter-actions">
            <button type="submit" className="button button-small">
              Apply Filters
            </button>
            {active ? (
              <Link to="/admin" className="button button-small">
                Reset Filters
              </Link>
            ) : null}
            <a href={`/admin/orders.csv${filterQuery(filters)}`} className="button button-small" download>
              Export CSV
            </a>
          </div>
        </Form>

        {/* The result, in a live region present from the start: a changed filter is announced (WCAG 4.1.3). */}
        <LiveRegion>
          {rows.length === 0 ? (
            <p className="empty card">{anyOrders && active ? "No orders match your filters" : "No orders yet"}</p>
          ) : (
            <p className="visually-hidden">
              {total === 1 ? "1 order" : `${total} orders`}
              {active ? (total === 1 ? " matches your filters" : " match your filters") : ""}
            </p>
          )}
        </LiveRegion>
        {rows.length === 0 ? null : (
          <Form method="post" aria-labelledby="orders-heading">
            <input type="hidden" name="q" value={filters.q ?? ""} />
            <input type="hidden" name="status" value={filters.status ?? ""} />
            <input type="hidden" name="date" value={filters.date ?? ""} />
            <input type="hidden" name="clock" value={filters.clock ?? ""} />
            <input type="hidden" name="sort" value={filters.sort ?? ""} />
            {before ? <input type="hidden" name="before" value={before} /> : null}
            <FormKey />
            <div className="bulk-bar card">
              <label className="choice">
                <input
                  type="checkbox"
                  name="all"
                  defaultChecked={kept.all}
                  onChange={(e) => toggleAll(e.currentTarget.checked)}
                />
                Select all ({countOf(total, "order")})
              </label>
              <label htmlFor="bulk-action" className="visually-hidden">
                Bulk action
              </label>
              <select id="bulk-action" name="action" defaultValue={kept.action ?? ""}>
                <option value="">Choose a bulk action</option>
                {BULK_ACTIONS.map((a) => (
                  <option key={a} value={a}>
                    {BULK_ACTION_LABELS[a]}
                  </option>
                ))}
              </select>
              <button
                type="submit"
                name="intent"
                value={INTENT.bulk}
                className="button button-small button-primary"
                disabled={busy}
              >
                {busy ? "Applying..." : "Apply to selected"}
              </button>
            </div>
            <ul className="order-list" ref={listRef}>
              {rows.map((o) => (
                <li key={o.id} className="card order-card">
                  <input
                    type="checkbox"
                    name="orderIds"
                    value={o.id}
                    defaultChecked={kept.all || kept.selected.includes(o.id)}
                    id={`select-${o.id}`}
                    aria-label={`Select order #${o.shortId}`}
                  />
                  <div className="order-main">
                    <p className="order-title">
                      <strong>Order #{o.shortId}</strong> <StatusBadge text={o.statusText} tone={o.tone} />
                      {o.guest ? <span className="badge badge-muted">Guest</span> : null}
                      {o.dataDeleted ? <span className="badge badge-muted">Data deleted</span> : null}
                    </p>
                    <p className="order-meta">
                      <EmailAddress address={o.email} />
                      <span>{o.amount}</span>
                      <span>{formatDateTime(o.createdAt)}</span>
                    </p>
                    {o.addOns ? <p className="hint">Add-ons: {o.addOns}</p> : null}
                    {o.clock ? (
                      <p>
                        <span className={`status status-${o.clockTone}`}>{o.clock}</span>
                      </p>
                    ) : null}
                    {o.paymentIntentId ? <p className="hint mono">{o.paymentIntentId}</p> : null}
                  </div>
                  <Link
                    to={`/admin/orders/${o.id}`}
                    className="button button-small"
                    aria-label={`View Details of order #${o.shortId}`}
                  >
                    View Details
                  </Link>
                </li>
              ))}
            </ul>
          </Form>
        )}
        <Pager page={page} noun="orders" one="order" newestFirst={!filters.sort} />
      </div>
    </>
  );
}
