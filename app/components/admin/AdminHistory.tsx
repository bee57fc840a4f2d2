import { Pager } from "~/components/admin/Pager";
import { formatDateTime } from "~/domain/dates";

type HistoryPage = {
  rows: { id: string; at: string; what: string; actor: string }[];
  next: string | null;
  first: boolean;
  pageSize: number;
};

/** The order detail's admin history, newest first and paged by `param`; nothing on a first page without rows. */
export function AdminHistory({ history, param }: { history: HistoryPage; param: string }) {
  if (!history.rows.length && history.first) return null;
  return (
    <section className="section-tight" aria-labelledby="history-heading">
      <h2 id="history-heading">Admin history</h2>
      <ul className="history">
        {history.rows.map((h) => (
          <li key={h.id}>
            <span className="hint">{formatDateTime(h.at)}</span> {h.what}, by {h.actor}
          </li>
        ))}
      </ul>
      <Pager page={history} noun="history entries" one="history entry" param={param} label="Pages of admin history" />
    </section>
  );
}
