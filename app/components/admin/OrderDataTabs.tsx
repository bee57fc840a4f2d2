import { getFormProps, useForm, type SubmissionResult } from "~/components/useForm";
import { Form } from "@remix-run/react";
import { BriefTab } from "~/components/admin/BriefTab";
import { CopyableText } from "~/components/admin/CopyableText";
import { SubTabs } from "~/components/admin/AdminTabs";
import { FormAlert } from "~/components/forms";
import { EDIT_FIELDS, EDIT_MESSAGES } from "~/domain/admin/edit-data";
import type { OrderPhoto } from "~/domain/admin/order-files";
import { PHOTO_CROPS, PHOTO_PLACEMENTS, PHOTO_PRIORITIES, type Option } from "~/domain/intake/options";
import {
  AI_OPT_OUT_MESSAGE,
  DETAIL_TABS,
  ORDER_INTENT,
  REVISION_NOTES_MAX,
  tabRound,
  type DataTabHints,
  type DetailTab,
} from "~/domain/admin/order-detail";
import type { PromptView } from "~/domain/ai-prompt";
import type { BriefView } from "~/domain/admin/brief";
import { formatDateTime } from "~/domain/dates";
import type { FormRules } from "~/domain/form-rules";
import type { Round } from "~/domain/orders";

type Reply = SubmissionResult<string[]>;

/** What the order page's action answers in place (everything else redirects with a flash). */
export type OrderDataReply =
  | { intent: typeof ORDER_INTENT.generatePrompt; prompt: string }
  | { intent: typeof ORDER_INTENT.revisionPrompt; round: Round; prompt?: string; result?: Reply }
  | { intent: typeof ORDER_INTENT.saveData; result: Reply; ignored?: string[] };

export type RevisionRow = {
  round: Round;
  included: boolean;
  enabled: boolean;
  feedback: string | null;
  submittedAt: string | null;
};

/**
 * The order page's data tabs (Brief, AI Prompt, Edit Data, Revision 1-3): each tab is a
 * URL (?tab=...), so they work without JavaScript; only the current one renders.
 */
export function OrderDataTabs({
  orderId,
  tab,
  brief,
  prompt,
  editValues,
  photos,
  revisions,
  reply,
  rules,
  hints,
}: {
  orderId: string;
  tab: DetailTab;
  /** The Brief (built only when its tab is open). */
  brief: BriefView | null;
  prompt: PromptView;
  editValues: Record<string, string> | null;
  /** The stored photos, whose details Edit Data changes too. */
  photos: OrderPhoto[];
  revisions: RevisionRow[];
  reply: OrderDataReply | undefined;
  /** The Edit Data and revision notes forms' rules (formRules of their schemas, from the loader). */
  rules: { edit: FormRules; notes: FormRules };
  /** The tabs' standing hints (from the loader). */
  hints: DataTabHints;
}) {
  const round = tabRound(tab);
  return (
    <>
      <SubTabs
        label="Order data"
        current={tab}
        tabs={DETAIL_TABS.map((t) => ({ id: t.id, label: t.label, href: `/admin/orders/${orderId}?tab=${t.id}` }))}
      />
      <section className="card tab-panel" aria-label={DETAIL_TABS.find((t) => t.id === tab)?.label}>
        {tab === "brief" && brief ? (
          <BriefTab brief={brief} orderId={orderId} printView={false} />
        ) : tab === "ai-prompt" ? (
          <AiPromptTab prompt={prompt} reply={reply} hint={hints.prompt} />
        ) : tab === "edit-data" ? (
          <EditDataTab editValues={editValues} photos={photos} reply={reply} rules={rules.edit} hint={hints.editData} />
        ) : round ? (
          <RevisionTab revision={revisions[round - 1]} prompt={prompt} reply={reply} rules={rules.notes} />
        ) : null}
      </section>
    </>
  );
}

function NoSubmission() {
  return <p className="empty">Customer hasn't completed the intake form yet</p>;
}

function AiPromptTab({ prompt, reply, hint }: { prompt: PromptView; reply: OrderDataReply | undefined; hint: string }) {
  const generated = reply && reply.intent === ORDER_INTENT.generatePrompt ? reply.prompt : null;
  if (prompt.state === "no-submission") return <NoSubmission />;
  if (prompt.state === "opted-out") return <p className="banner">{AI_OPT_OUT_MESSAGE}</p>;
  return (
    <>
      <h2>AI Prompt</h2>
      <p>
        Completeness <span className={`status status-${prompt.tone}`}>{prompt.completeness}%</span>
      </p>
      {prompt.warnings.length ? (
        <ul className="warnings" aria-label="Warnings">
          {prompt.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      <p className="hint">{hint}</p>
      {generated ? (
        <CopyableText id="ai-prompt" label="Generated prompt" text={generated} />
      ) : (
        <Form method="post">
          <button type="submit" name="intent" value={ORDER_INTENT.generatePrompt} className="button button-primary">
            Generate AI Prompt
          </button>
        </Form>
      )}
    </>
  );
}

function EditDataTab({
  editValues,
  photos,
  reply,
  rules,
  hint,
}: {
  editValues: Record<string, string> | null;
  photos: OrderPhoto[];
  reply: OrderDataReply | undefined;
  rules: FormRules;
  hint: string;
}) {
  const mine = reply && reply.intent === ORDER_INTENT.saveData ? reply : undefined;
  const lastResult = mine?.result;
  const [form, fields] = useForm({
    lastResult,
    defaultValue: editValues ?? {},
    rules,
    intent: ORDER_INTENT.saveData,
  });
  if (!editValues) return <NoSubmission />;
  const failed = EDIT_FIELDS.filter((f) => fields[f.name]?.errors?.length).map((f) => ({
    id: fields[f.name].id,
    label: f.label,
    errors: fields[f.name].errors,
  }));
  // Saved with some JSON edits ignored: the alert says so and names them; otherwise the first refusal.
  const alert = mine?.ignored?.length ? EDIT_MESSAGES.ignored(mine.ignored) : undefined;
  return (
    <Form method="post" {...getFormProps(form)} noValidate>
      <h2>Edit Data</h2>
      <FormAlert message={alert} failed={failed} />
      <p className="hint">{hint}</p>
      <div className="edit-grid">
        {EDIT_FIELDS.map((f) => {
          const meta = fields[f.name];
          const value = String(meta?.initialValue ?? "");
          const errors = meta?.errors;
          const common = {
            id: meta.id,
            name: f.name,
            "aria-invalid": errors ? true : undefined,
            "aria-describedby": errors ? meta.errorId : undefined,
          };
          return (
            <div
              key={f.name}
              className={`field${f.wide || f.kind === "list" || f.kind === "object" || f.kind === "textarea" ? " field-wide" : ""}`}
            >
              <label htmlFor={meta.id}>{f.label}</label>
              {f.kind === "flag" ? (
                <select {...common} defaultValue={value}>
                  <option value="">Not answered</option>
                  <option value="yes">Yes</option>
                  <option value="no">No</option>
                </select>
              ) : f.kind === "text" ? (
                <input {...common} type="text" defaultValue={value} />
              ) : (
                <textarea
                  {...common}
                  defaultValue={value}
                  rows={f.kind === "textarea" ? 4 : 5}
                  className={f.kind === "textarea" ? undefined : "mono"}
                />
              )}
              <p className="field-error" id={meta.errorId}>
                {errors?.[0]}
              </p>
            </div>
          );
        })}
      </div>
      {photos.length ? <PhotoDetailsFields photos={photos} errors={lastResult?.error ?? {}} /> : null}
      <button type="submit" name="intent" value={ORDER_INTENT.saveData} className="button button-primary">
        Save Changes
      </button>
    </Form>
  );
}

/** Each photo's details (alt text, placement, crop, priority), posted as `photos[i].*` beside its id. */
function PhotoDetailsFields({
  photos,
  errors,
}: {
  photos: OrderPhoto[];
  errors: Record<string, string[] | null | undefined>;
}) {
  const select = (name: string, label: string, options: Option[], value: string) => (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <select id={name} name={name} defaultValue={value}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <>
      <h3>Photos</h3>
      {photos.map((p, i) => {
        const at = `photos[${i}]`;
        const altError = errors[`${at}.altText`]?.[0];
        return (
          <fieldset key={p.id} className="edit-grid">
            <legend>Photo {i + 1}</legend>
            <input type="hidden" name={`${at}.id`} value={p.id} />
            <div className="field field-wide">
              <label htmlFor={`${at}.altText`}>Alt text</label>
              <input
                id={`${at}.altText`}
                name={`${at}.altText`}
                type="text"
                defaultValue={p.altText}
                maxLength={300}
                aria-invalid={altError ? true : undefined}
                aria-describedby={altError ? `${at}.altText-error` : undefined}
              />
              <p className="field-error" id={`${at}.altText-error`}>
                {altError}
              </p>
            </div>
            {select(`${at}.placement`, "Placement", PHOTO_PLACEMENTS, p.placement)}
            {select(`${at}.crop`, "Crop", PHOTO_CROPS, p.crop)}
            {select(`${at}.priority`, "Priority", PHOTO_PRIORITIES, p.priority)}
          </fieldset>
        );
      })}
    </>
  );
}

function RevisionTab({
  revision: r,
  prompt,
  reply,
  rules,
}: {
  revision: RevisionRow;
  prompt: PromptView;
  reply: OrderDataReply | undefined;
  rules: FormRules;
}) {
  const { round } = r;
  const mine = reply && reply.intent === ORDER_INTENT.revisionPrompt && reply.round === round ? reply : undefined;
  const [form, fields] = useForm({
    id: `revision-prompt-${round}`,
    lastResult: mine?.result,
    rules,
    // Notes typed while the session ended come back here (the kept post's page is this round's tab).
    intent: ORDER_INTENT.revisionPrompt,
  });
  if (!r.included) return <p>This order's package does not include revision round {round}.</p>;
  return (
    <>
      <h2>Revision {round}</h2>
      <p>
        {r.submittedAt ? (
          <>
            <span className="badge">Submitted</span> {formatDateTime(r.submittedAt)}
          </>
        ) : r.enabled ? (
          "Open: waiting for the customer's feedback."
        ) : (
          "Locked: enable the round in the revision workflow above."
        )}
      </p>
      {r.feedback ? <blockquote className="feedback-sent">{r.feedback}</blockquote> : null}
      <h3>Revision prompt generator</h3>
      {prompt.state === "ready" ? (
        <Form method="post" {...getFormProps(form)} noValidate>
          <input type="hidden" name="round" value={round} />
          <FormAlert message={fields.notes.errors?.[0]} />
          <div className="field">
            <label htmlFor={fields.notes.id}>Revision notes</label>
            <textarea
              id={fields.notes.id}
              name={fields.notes.name}
              defaultValue={String(fields.notes.initialValue ?? "")}
              rows={5}
              maxLength={REVISION_NOTES_MAX}
              aria-invalid={fields.notes.errors ? true : undefined}
              aria-describedby={fields.notes.errors ? fields.notes.errorId : undefined}
            />
            <p className="field-error" id={fields.notes.errorId}>
              {fields.notes.errors?.[0]}
            </p>
          </div>
          <button type="submit" name="intent" value={ORDER_INTENT.revisionPrompt} className="button button-small">
            Generate Revision Prompt
          </button>
        </Form>
      ) : prompt.state === "opted-out" ? (
        <p className="banner">{AI_OPT_OUT_MESSAGE}</p>
      ) : (
        <NoSubmission />
      )}
      {mine?.prompt ? (
        <CopyableText id={`revision-prompt-text-${round}`} label="Revision prompt" text={mine.prompt} rows={12} />
      ) : null}
    </>
  );
}
