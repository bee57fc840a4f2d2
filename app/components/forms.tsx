import { useRouteLoaderData } from "@remix-run/react";
import { Children, cloneElement, isValidElement, type ReactNode } from "react";
import { FORM_KEY_FIELD } from "~/domain/form-key";
import { useHydrated } from "./hooks";

/**
 * A labelled field with its hint and its error tied to the control (WCAG 1.3.1, 3.3.1): the
 * control (the child whose id is `id`) gets `aria-describedby` naming the hint, added here, and
 * the error, which the caller's props name when there is one (useForm's field metadata).
 * `children` is the control, with anything shown beside it.
 */
export function Field({
  id,
  label,
  hint,
  errors,
  errorId,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  errors?: string[];
  errorId: string;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="hint" id={hintId(id)}>
          {hint}
        </p>
      ) : null}
      {hint ? tieHint(children, id) : children}
      <p className="field-error" id={errorId}>
        {errors?.[0]}
      </p>
    </div>
  );
}

/** The id of a field's hint (Field renders it with this id). */
export const hintId = (fieldId: string) => `${fieldId}-hint`;

type Described = { id?: string; "aria-describedby"?: string };

/** The children with the hint's id added to the control's `aria-describedby` (before its error's). */
function tieHint(children: ReactNode, id: string) {
  return Children.map(children, (child) =>
    isValidElement<Described>(child) && child.props.id === id
      ? cloneElement(child, {
          "aria-describedby": [hintId(id), child.props["aria-describedby"]].filter(Boolean).join(" "),
        })
      : child,
  );
}

/**
 * The `aria-describedby` of a control outside a Field (a checkbox inside its label): its error,
 * when it has one.
 */
export function describedBy(field: { errorId: string; errors?: string[] }) {
  return { "aria-describedby": field.errors?.length ? field.errorId : undefined };
}

/** A field that failed, as the form's alert lists it: its control's id, its label and its messages. */
export type FailedField = { id: string; label: string; errors?: string[] };

/** The failed fields of a form (useForm's fields), in the order given, each with the label a person reads. */
export function failedFields(
  fields: Record<string, { id: string; errors?: string[] }>,
  labels: Record<string, string>,
): FailedField[] {
  return Object.entries(labels)
    .map(([name, label]) => ({ id: fields[name]!.id, label, errors: fields[name]!.errors }))
    .filter((f) => f.errors?.length);
}

/**
 * The form's one announced message: a form-level error (the spec's sentence) or the first failing
 * field's error, and, when more than that one field failed, a link to each field that failed
 * (WCAG 3.3.1). Without JavaScript the page that shows it after a refused post focuses it
 * (`autofocus`), so the person hears what to fix and the browser scrolls it into view below the
 * header; with JavaScript, useForm (components/useForm.ts) focuses the first field that failed instead.
 */
export function FormAlert({ message, failed = [] }: { message?: string; failed?: FailedField[] }) {
  const hydrated = useHydrated();
  const text = message ?? failed[0]?.errors?.[0];
  const others = failed.length === 1 && text && failed[0]!.errors?.includes(text) ? [] : failed;
  // role="alert" is announced when it appears (unlike a polite status, which must be there first).
  if (!text) return null;
  return (
    // Focused on a page load only (the answer to a post without JavaScript): what the person came back to fix.
    // eslint-disable-next-line jsx-a11y/no-autofocus -- WCAG 2.4.3: without it, focus starts at the top of the refused page
    <div className="flash flash-error form-alert" role="alert" tabIndex={-1} autoFocus={!hydrated}>
      <p>{text}</p>
      {others.length > 0 ? (
        <p>
          {others.length === 1 ? "Check this field: " : "Check these fields: "}
          {others.map((f, i) => (
            <span key={f.id}>
              {i > 0 ? ", " : null}
              <a href={`#${f.id}`}>{f.label}</a>
            </span>
          ))}
          .
        </p>
      ) : null}
    </div>
  );
}

/**
 * The page's form key (made by the root loader when the page was rendered), in
 * every form that creates something: a resend of a post whose answer was lost
 * is then answered as the first was, and changes nothing twice.
 */
export function FormKey() {
  const root = useRouteLoaderData<{ formKey?: string }>("root");
  return <input type="hidden" name={FORM_KEY_FIELD} value={root?.formKey ?? ""} />;
}
