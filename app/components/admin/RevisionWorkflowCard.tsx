import { Form } from "@remix-run/react";
import type { RevisionRow } from "~/components/admin/OrderDataTabs";
import { useKeptPost } from "~/components/admin/session-data";
import { FormAlert } from "~/components/forms";
import { useIsPending } from "~/components/hooks";
import { DETAIL_MESSAGES, ORDER_INTENT, revisionToggleLabel } from "~/domain/admin/order-detail";
import { formatDateTime } from "~/domain/dates";

/** A draft URL refused for its form: what was typed and why, shown on the field. */
export type DraftUrlReply = { intent: typeof ORDER_INTENT.saveDraftUrl; value: string; error: string };

/** The order page's revision workflow: the draft URL, and a toggle per round the package includes with its feedback. */
export function RevisionWorkflowCard({
  draftUrl,
  draftReply,
  revisions,
}: {
  draftUrl: string | null;
  draftReply: DraftUrlReply | null;
  revisions: RevisionRow[];
}) {
  const busy = useIsPending();
  // A draft URL sent after the session ended, offered back once the admin signed in again (routes/admin.tsx).
  const kept = useKeptPost(ORDER_INTENT.saveDraftUrl)?.draftUrl;
  const included = revisions.filter((r) => r.included);
  return (
    <section className="card detail-wide" aria-labelledby="revisions-heading">
      <h2 id="revisions-heading">Revision Workflow</h2>
      <Form method="post" className="inline-form">
        {draftReply ? <FormAlert message={`${DETAIL_MESSAGES.saveError}: Draft URL: ${draftReply.error}`} /> : null}
        <label htmlFor="draftUrl">Draft URL</label>
        <div className="inline-field">
          <input
            // Remounted with what was typed when the server refuses it, so nothing typed is lost.
            key={draftReply ? `typed:${draftReply.value}` : "saved"}
            id="draftUrl"
            name="draftUrl"
            type="text"
            inputMode="url"
            defaultValue={draftReply ? draftReply.value : (kept ?? draftUrl ?? "")}
            aria-invalid={draftReply ? true : undefined}
            aria-describedby={draftReply ? "draftUrl-error" : undefined}
            maxLength={2000}
            placeholder="https://..."
          />
          <button
            type="submit"
            name="intent"
            value={ORDER_INTENT.saveDraftUrl}
            className="button button-small"
            disabled={busy}
          >
            Save
          </button>
        </div>
        {draftReply ? (
          <p className="field-error" id="draftUrl-error">
            {draftReply.error}
          </p>
        ) : null}
      </Form>
      {draftUrl ? (
        <p>
          <a href={draftUrl} target="_blank" rel="noreferrer noopener">
            View Current Draft
          </a>
        </p>
      ) : null}
      <ul className="revision-list">
        {included.map((r) => (
          <li key={r.round}>
            {/* In place: the page keeps its scroll, and focus returns to this toggle (components/focus.ts). */}
            <Form method="post" className="toggle-row" preventScrollReset>
              <input type="hidden" name="round" value={r.round} />
              <input type="hidden" name="enabled" value={String(!r.enabled)} />
              <button
                id={`revision-toggle-${r.round}`}
                type="submit"
                name="intent"
                value={ORDER_INTENT.toggleRevision}
                className="toggle"
                aria-pressed={r.enabled}
                disabled={busy}
              >
                <span className="toggle-track" aria-hidden="true" />
                {revisionToggleLabel(r.round)}
              </button>
              <span className="hint">{r.enabled ? "On" : "Off"}</span>
            </Form>
            {r.submittedAt ? (
              <>
                <p className="badges">
                  <span className="badge">Submitted</span>
                  <span className="hint">{formatDateTime(r.submittedAt)}</span>
                </p>
                <blockquote className="feedback-sent">{r.feedback}</blockquote>
              </>
            ) : null}
          </li>
        ))}
      </ul>
      {included.length < revisions.length ? (
        <p className="hint">This order's package includes {included.length} revision round(s).</p>
      ) : null}
    </section>
  );
}
