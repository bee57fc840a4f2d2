import { useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { FORM_KEY_FIELD } from "~/domain/form-key";

/**
 * A labelled field with its error beside it. `children` is the control; it gets
 * its id, name and aria attributes from the caller (Conform's field metadata).
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
      {hint ? <p className="hint">{hint}</p> : null}
      {children}
      <p className="field-error" id={errorId} aria-live="polite">
        {errors?.[0]}
      </p>
    </div>
  );
}

/** The form's one announced message: the first failing field's error, or a form-level error. */
export function FormAlert({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <div className="flash flash-error form-alert" role="alert">
      {message}
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
