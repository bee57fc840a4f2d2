import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { checkForm, type FormRules } from "~/domain/form-rules";
import { useKeptPost } from "./admin/session-data";

/**
 * What our forms used of Conform's browser side (`useForm`, `getFormProps`, `getInputProps`, ...),
 * in a few lines of our own: Conform's client is about 11 KB gzip on every form page, and the
 * pages use only this much of it. The server still parses every post with the
 * schema (`parseWithZod` in server/form-rules.server.ts) and answers with `submission.reply()`,
 * which this hook reads as `lastResult`; the browser checks the form's rules (`formRules` of the
 * same schema, handed over by the loader) before a post, so a person sees the spec's message
 * without a round trip. The names, ids and props are Conform's, so a form reads the same.
 *
 * - Without JavaScript the server render shows the answer's errors and what was typed
 *   (`lastResult.initialValue`; a `hideFields` field, such as a password, comes back empty).
 * - A submit that breaks a rule is stopped, its messages shown and the first failing field
 *   focused (every button is checked, `formNoValidate` ones too, as Conform did: the intake's
 *   Save & Exit is held while a row is half typed). An answer with errors focuses its first
 *   failing field too.
 * - Once a form has been sent or refused, typing in a field checks that field again
 *   (`shouldRevalidate: "onInput"`), so its message goes as soon as it is right.
 */

/** The server's answer to a post, as `submission.reply()` makes it (Conform's SubmissionResult, the parts read here). */
export type SubmissionResult<FormError = string[]> = {
  status?: "error" | "success";
  initialValue?: Record<string, unknown> | null;
  error?: Record<string, FormError | null>;
};

type Errors = Record<string, string[]>;

export type FormMetadata = {
  id: string;
  errorId: string;
  /** The form's own messages (not tied to a field). */
  errors?: string[];
  /** Every message, by field name (`""` for the form's own). */
  allErrors: Errors;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onInput: (event: FormEvent<HTMLFormElement>) => void;
  noValidate: true;
};

export type FieldMetadata = {
  id: string;
  name: string;
  formId: string;
  errorId: string;
  errors?: string[];
  valid: boolean;
  /** What the field showed when the page was made: typed and sent back, or the form's default. */
  initialValue: unknown;
};

export function useForm({
  id: givenId,
  lastResult,
  defaultValue,
  rules,
  shouldRevalidate = "onSubmit",
  intent,
}: {
  id?: string;
  lastResult?: SubmissionResult | null;
  defaultValue?: Record<string, unknown>;
  /** The form's rules (`formRules` of its schema, from the loader); none: only the server checks. */
  rules?: FormRules;
  shouldRevalidate?: "onInput" | "onSubmit";
  /** The `intent` the form posts: an admin post with it, kept when the session ended, fills the form (routes/admin.tsx). */
  intent?: string;
}): [FormMetadata, Record<string, FieldMetadata>] {
  const reactId = useId();
  const id = givenId ?? `form${reactId.replace(/:/g, "")}`;
  const [errors, setErrors] = useState<Errors>(() => errorsOf(lastResult));
  // A new answer replaces the messages in the same render (no frame shows the old ones).
  const [answered, setAnswered] = useState(lastResult);
  if (lastResult !== answered) {
    setAnswered(lastResult);
    setErrors(errorsOf(lastResult));
  }
  const validated = useRef(Boolean(lastResult));
  // The answer the page was made with has been shown already (and, without JavaScript, its alert focused).
  const shown = useRef(lastResult);
  useEffect(() => {
    if (!lastResult || lastResult === shown.current) return;
    shown.current = lastResult;
    validated.current = true;
    if (lastResult.status === "error") focusFirstInvalid(document.forms.namedItem(id), errorsOf(lastResult));
  }, [lastResult, id]);

  const kept = useKeptPost(intent);
  const initial = (lastResult?.initialValue ?? defaultValue ?? {}) as Record<string, unknown>;
  const form: FormMetadata = {
    id,
    errorId: `${id}-error`,
    errors: errors[""],
    allErrors: errors,
    noValidate: true,
    onSubmit(event) {
      const element = event.currentTarget;
      const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | HTMLInputElement | null;
      validated.current = true;
      if (!rules) return;
      const found = checkForm(rules, formDataOf(element, submitter)) ?? {};
      // Unchanged messages change no state: a valid press draws nothing before its post leaves (on a slow phone
      // that render alone held the post back by tens of milliseconds).
      setErrors((current) => (JSON.stringify(current) === JSON.stringify(found) ? current : found));
      if (Object.keys(found).length) {
        event.preventDefault();
        focusFirstInvalid(element, found);
      }
    },
    onInput(event) {
      const target = event.target as HTMLInputElement;
      if (!rules || !validated.current || shouldRevalidate !== "onInput" || !target.name) return;
      const message = checkForm(rules, new FormData(event.currentTarget))?.[target.name];
      setErrors((current) => {
        if (!message && !current[target.name]) return current;
        const next = { ...current };
        if (message) next[target.name] = message;
        else delete next[target.name];
        return next;
      });
    },
  };
  const fields = new Proxy({} as Record<string, FieldMetadata>, {
    get: (_, name) => {
      if (typeof name !== "string") return undefined;
      const fieldId = `${id}-${name}`;
      return {
        id: fieldId,
        name,
        formId: id,
        errorId: `${fieldId}-error`,
        errors: errors[name],
        valid: !errors[name],
        initialValue: kept && !lastResult ? kept[name] : valueAt(initial, name),
      } satisfies FieldMetadata;
    },
  });
  return [form, fields];
}

/** The messages of a server answer, by name (a `null` entry is a field the server did not check). */
function errorsOf(result: SubmissionResult | null | undefined): Errors {
  return Object.fromEntries(
    Object.entries(result?.error ?? {}).filter((entry): entry is [string, string[]] => Boolean(entry[1]?.length)),
  );
}

/** The form's data as the post will carry it, the pressed button's `intent` included. */
function formDataOf(form: HTMLFormElement, submitter: HTMLButtonElement | HTMLInputElement | null) {
  const data = new FormData(form);
  if (submitter?.name) data.append(submitter.name, submitter.value);
  return data;
}

function focusFirstInvalid(form: HTMLFormElement | null, errors: Errors) {
  for (const element of Array.from(form?.elements ?? []) as HTMLInputElement[]) {
    if (element.name && errors[element.name] && element.type !== "hidden") {
      element.focus();
      return;
    }
  }
}

/** The value at a field name such as `email` or `servicesList[0].name` in nested values. */
function valueAt(values: Record<string, unknown>, name: string): unknown {
  let value: unknown = values;
  for (const key of name.split(/\.|\[(\d+)\]/).filter(Boolean)) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

type Described = { "aria-invalid"?: true; "aria-describedby"?: string };

function aria(meta: { errors?: string[]; errorId: string }, control: boolean): Described {
  if (!meta.errors?.length) return {};
  return { ...(control ? { "aria-invalid": true as const } : {}), "aria-describedby": meta.errorId };
}

export function getFormProps(form: FormMetadata) {
  return {
    id: form.id,
    onSubmit: form.onSubmit,
    onInput: form.onInput,
    noValidate: form.noValidate,
    ...aria(form, false),
  };
}

const controlProps = (field: FieldMetadata) => ({
  id: field.id,
  name: field.name,
  form: field.formId,
  ...aria(field, true),
});

const text = (value: unknown) => (Array.isArray(value) ? value[0] : value)?.toString();

export function getInputProps(field: FieldMetadata, { type, value }: { type: string; value?: string }) {
  if (type === "checkbox" || type === "radio") {
    const own = value ?? "on";
    const initial = field.initialValue;
    return {
      ...controlProps(field),
      type,
      value: own,
      defaultChecked: Array.isArray(initial) ? initial.includes(own) : initial === own,
    };
  }
  return { ...controlProps(field), type, defaultValue: text(field.initialValue) };
}

export function getTextareaProps(field: FieldMetadata) {
  return { ...controlProps(field), defaultValue: text(field.initialValue) };
}

export function getSelectProps(field: FieldMetadata) {
  return { ...controlProps(field), defaultValue: text(field.initialValue) };
}
