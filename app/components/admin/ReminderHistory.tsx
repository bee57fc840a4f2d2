import { EmailAddress } from "~/components/EmailAddress";
import { REMINDER_KIND_LABELS, type ReminderKind } from "~/domain/reminders";

export type ReminderHistoryRow = {
  sentAt: string;
  when: string;
  kind: ReminderKind;
  round: number | null;
  source: "cron" | "admin";
  actor: string | null;
};

/** The order detail's reminder history: when, which kind, sent by the cron or by which admin. */
export function ReminderHistory({ rows }: { rows: ReminderHistoryRow[] }) {
  return (
    <section aria-labelledby="reminder-history-heading" className="card section-tight">
      <h2 id="reminder-history-heading">Reminders</h2>
      {rows.length === 0 ? (
        <p>No reminders sent yet.</p>
      ) : (
        <table className="stack-table">
          <thead>
            <tr>
              <th scope="col">Sent</th>
              <th scope="col">Kind</th>
              <th scope="col">By</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.sentAt}-${r.kind}-${r.round}`}>
                <td>
                  <time dateTime={r.sentAt}>
                    <strong>{r.when}</strong>
                  </time>
                </td>
                <td data-label="Kind">
                  {REMINDER_KIND_LABELS[r.kind] ?? r.kind}
                  {r.round ? ` (round ${r.round})` : ""}
                </td>
                <td data-label="By">
                  {r.source === "cron" ? (
                    "Automatic (cron)"
                  ) : r.actor ? (
                    <>
                      Admin: <EmailAddress address={r.actor} />
                    </>
                  ) : (
                    "Admin"
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
