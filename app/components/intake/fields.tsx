import { createContext, Fragment, useContext, useEffect, useState, type ReactNode } from "react";
import type { IntakeData, IntakeField, IntakeFieldPath } from "~/domain/intake/data";
import type { Option } from "~/domain/intake/options";
import { INTENT_VALUES } from "~/domain/intake/intents";
import type { RowField, RowList } from "~/domain/intake/labels";
import { itemIdName, LIST_IDS, type IdListField } from "~/domain/intake/list-ids";
import { useHydrated } from "../hooks";

/**
 * The intake step forms' building blocks. Inputs are uncontrolled and named the
 * way Conform parses them (`servicesList[0].name`); values and errors come from
 * the step's context, so a failed post re-renders with everything typed.
 */
type StepContext = {
  formId: string;
  values: IntakeData;
  errors: Record<string, string[] | undefined>;
  /**
   * The list whose add box (or Add button) takes focus on a page loaded whole: the one the last post added to
   * (WCAG 2.4.3; the page with scripts moves focus itself, so StepPage passes it only for the first draw).
   */
  focusAdd?: string | null;
};
export const StepFormContext = createContext<StepContext>({ formId: "", values: {}, errors: {} });

export function valueAt(values: unknown, path: string): unknown {
  return path
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .reduce<unknown>(
      (v, key) => (v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined),
      values,
    );
}

/** An item's name inside a sentence: "Add a video URL", not "Add a video url". */
const inSentence = (label: string) => label.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());

/** A field's element id, from its name (the top alert links to it). */
export const fieldId = (name: string) => `f-${name.replace(/[^a-zA-Z0-9]+/g, "-")}`;
const idFor = fieldId;

/** The ids that describe a control: its hint and its error, when it has them (WCAG 1.3.1, 3.3.1). */
export const describedBy = (id: string, hint: unknown, error: unknown) =>
  [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;

function useField(name: IntakeFieldPath, hint?: ReactNode, fixedId?: string) {
  const { values, errors } = useContext(StepFormContext);
  const raw = valueAt(values, name);
  const error = errors[name]?.[0];
  const id = fixedId ?? idFor(name);
  return {
    id,
    error,
    value: raw,
    aria: { "aria-invalid": error ? true : undefined, "aria-describedby": describedBy(id, hint, error) },
  };
}

function FieldLabel({
  id,
  label,
  required,
  hint,
}: {
  id: string;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
}) {
  return (
    <>
      <label htmlFor={id}>
        {label}
        {required ? <span className="required"> (required)</span> : null}
      </label>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </>
  );
}

export function ErrorText({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p className="field-error" id={`${id}-error`}>
      {error}
    </p>
  ) : null;
}

/** The current value of a field as the person edits it (JavaScript), or its saved value. */
export function useLiveValue(name: IntakeFieldPath): unknown {
  const { formId, values } = useContext(StepFormContext);
  const [value, setValue] = useState<unknown>(() => valueAt(values, name));
  useEffect(() => {
    const form = document.getElementById(formId) as HTMLFormElement | null;
    if (!form) return;
    const read = () => {
      const all = new FormData(form).getAll(name);
      setValue(all.length > 1 ? all : all[0]);
    };
    read();
    form.addEventListener("input", read);
    form.addEventListener("change", read);
    return () => {
      form.removeEventListener("input", read);
      form.removeEventListener("change", read);
    };
  }, [formId, name]);
  return value;
}

/** Shown only when `show` holds (with JavaScript); without it, always shown, its label saying when it applies. */
export function When({ show, children }: { show: boolean; children: ReactNode }) {
  const hydrated = useHydrated();
  if (hydrated && !show) return null;
  return <>{children}</>;
}

type TextProps = {
  name: IntakeFieldPath;
  /** An id that stays when the name moves (a list's add box: focus comes back to it after Enter). */
  id?: string;
  label: ReactNode;
  type?: "text" | "email" | "tel" | "url" | "date" | "textarea";
  hint?: ReactNode;
  required?: boolean;
  rows?: number;
  autoComplete?: string;
  placeholder?: string;
  /** Focus on a page drawn without scripts (a list's add box after its Add or Enter). */
  focusFirst?: boolean;
};

export function TextField({
  name,
  id,
  label,
  type = "text",
  hint,
  required,
  rows = 4,
  autoComplete,
  placeholder,
  focusFirst,
}: TextProps) {
  const f = useField(name, hint, id);
  const common = {
    id: f.id,
    name,
    defaultValue: f.value == null ? "" : String(f.value),
    "aria-required": required || undefined,
    placeholder,
    autoFocus: focusFirst || undefined,
    ...f.aria,
  };
  return (
    <div className="field">
      <FieldLabel id={f.id} label={label} required={required} hint={hint} />
      {type === "textarea" ? (
        <textarea {...common} rows={rows} autoComplete={autoComplete} />
      ) : (
        <input
          {...common}
          type={type === "url" ? "text" : type}
          inputMode={type === "url" ? "url" : undefined}
          autoComplete={autoComplete}
        />
      )}
      <ErrorText id={f.id} error={f.error} />
    </div>
  );
}

/** A select; with `initial`, that option is chosen until something is saved, and there is no empty choice. */
export function SelectField({
  name,
  label,
  options,
  required,
  hint,
  initial,
}: {
  name: IntakeFieldPath;
  label: ReactNode;
  options: Option[];
  required?: boolean;
  hint?: ReactNode;
  initial?: string;
}) {
  const f = useField(name, hint);
  return (
    <div className="field">
      <FieldLabel id={f.id} label={label} required={required} hint={hint} />
      <select
        id={f.id}
        name={name}
        defaultValue={f.value == null ? (initial ?? "") : String(f.value)}
        aria-required={required || undefined}
        {...f.aria}
      >
        {initial === undefined ? <option value="">Choose one…</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <ErrorText id={f.id} error={f.error} />
    </div>
  );
}

/**
 * A choice with an "Other" option and a box to describe it. With JavaScript the
 * box shows only when Other is chosen; without it, it is always there, its label
 * saying "(if Other)". The server drops its text unless Other was chosen.
 */
export function SelectWithOther(props: {
  name: IntakeFieldPath;
  otherName: IntakeField;
  label: ReactNode;
  otherLabel: string;
  options: Option[];
  required?: boolean;
  hint?: ReactNode;
}) {
  const chosen = useLiveValue(props.name);
  return (
    <>
      <SelectField
        name={props.name}
        label={props.label}
        options={props.options}
        required={props.required}
        hint={props.hint}
      />
      <When show={chosen === "other"}>
        <TextField name={props.otherName} label={`${props.otherLabel} (if Other)`} />
      </When>
    </>
  );
}

export function RadioGroup({
  name,
  legend,
  options,
  hint,
}: {
  name: IntakeFieldPath;
  legend: ReactNode;
  options: Option[];
  hint?: ReactNode;
}) {
  const f = useField(name, hint);
  return (
    <fieldset className="choices" id={f.id} aria-describedby={f.aria["aria-describedby"]}>
      <legend>{legend}</legend>
      {hint ? (
        <p className="hint" id={`${f.id}-hint`}>
          {hint}
        </p>
      ) : null}
      {options.map((o) => (
        <label key={o.value} className="choice">
          <input type="radio" name={name} value={o.value} defaultChecked={String(f.value ?? "") === o.value} />{" "}
          {o.label}
        </label>
      ))}
      <ErrorText id={f.id} error={f.error} />
    </fieldset>
  );
}

export const YES_NO: Option[] = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
];

export function Checkbox({
  name,
  label,
  required,
  hint,
}: {
  name: IntakeFieldPath;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
}) {
  const f = useField(name, hint);
  return (
    <div className="field">
      <label className="choice" htmlFor={f.id}>
        <input
          id={f.id}
          type="checkbox"
          name={name}
          defaultChecked={f.value === "on" || f.value === true}
          aria-required={required || undefined}
          {...f.aria}
        />{" "}
        {/* One run of text: as two flex items the label squeezed "(required)" into a column of letters at 390 px. */}
        <span>
          {label}
          {required ? <span className="required"> (required)</span> : null}
        </span>
      </label>
      {hint ? (
        <p className="hint" id={`${f.id}-hint`}>
          {hint}
        </p>
      ) : null}
      <ErrorText id={f.id} error={f.error} />
    </div>
  );
}

export function CheckboxGroup({
  name,
  legend,
  options,
  locked = [],
}: {
  name: IntakeFieldPath;
  legend: ReactNode;
  options: readonly string[];
  locked?: readonly string[];
}) {
  const f = useField(name);
  const chosen = Array.isArray(f.value) ? (f.value as string[]) : [];
  return (
    <fieldset className="choices" id={f.id} aria-describedby={f.aria["aria-describedby"]}>
      <legend>{legend}</legend>
      {options.map((o) =>
        locked.includes(o) ? (
          <label key={o} className="choice">
            <input type="checkbox" checked disabled /> {o} <span className="hint">(always included)</span>
            <input type="hidden" name={name} value={o} />
          </label>
        ) : (
          <label key={o} className="choice">
            <input type="checkbox" name={name} value={o} defaultChecked={chosen.includes(o)} /> {o}
          </label>
        ),
      )}
      <ErrorText id={f.id} error={f.error} />
    </fieldset>
  );
}

/** The remove button of one list item: saves the step without that item, named by its id (`row`: where it is now). */
export function RemoveButton({ name, id, row, label }: { name: IntakeField; id: string; row: number; label: string }) {
  return (
    <button
      type="submit"
      name="intent"
      value={INTENT_VALUES.remove(name, id)}
      data-row={row}
      className="link-button"
      formNoValidate
    >
      Remove {label}
    </button>
  );
}

/** A list item's id as posted with it (domain/intake/list-ids.ts). */
function ItemId({ name, row, id }: { name: IdListField; row: number; id: string | undefined }) {
  return id ? <input type="hidden" name={itemIdName(name, row)} value={id} /> : null;
}

/** The items of a list with their ids (as stored, or as posted with a refused post), the blank ones left out. */
function withIds<T>(values: IntakeData, name: IntakeField, keep: (item: T) => boolean) {
  const items = (valueAt(values, name) as T[] | undefined) ?? [];
  const ids = (valueAt(values, `${LIST_IDS}.${name}`) as (string | undefined)[] | undefined) ?? [];
  return (Array.isArray(items) ? items : [])
    .map((item, i) => ({ item, id: Array.isArray(ids) ? ids[i] : undefined }))
    .filter(({ item }) => keep(item));
}

/** A list of short texts: the saved ones, each removable, and one empty box to add another. */
export function TextList({
  name,
  legend,
  itemLabel,
  max,
  hint,
  type = "text",
}: {
  name: IdListField;
  legend: ReactNode;
  itemLabel: string;
  max: number;
  hint?: ReactNode;
  type?: "text" | "url";
}) {
  const { values, focusAdd } = useContext(StepFormContext);
  const saved = withIds<string | undefined>(values, name, Boolean);
  const id = idFor(name);
  return (
    <ListEditor name={name} legend={legend} hint={hint}>
      <ol className="list-items">
        {saved.map((item, i) => (
          <li key={item.id ?? i}>
            <TextField name={`${name}[${i}]`} label={`${itemLabel} ${i + 1}`} type={type} />
            <ItemId name={name} row={i} id={item.id} />
            {item.id ? (
              <RemoveButton name={name} id={item.id} row={i} label={`${inSentence(itemLabel)} ${i + 1}`} />
            ) : null}
          </li>
        ))}
        {saved.length < max ? (
          <li>
            <TextField
              name={`${name}[${saved.length}]`}
              id={`${id}-new`}
              label={`Add a ${inSentence(itemLabel)}`}
              type={type}
              focusFirst={focusAdd === name}
            />
            <button type="submit" name="intent" value={INTENT_VALUES.stay} className="button button-small">
              Add {inSentence(itemLabel)}
            </button>
          </li>
        ) : (
          <FullListItem id={`${id}-full`} itemLabel={itemLabel} max={max} type={type} />
        )}
      </ol>
    </ListEditor>
  );
}

/** A list's frame (both kinds): its legend, hint and error, tied to the group for a screen reader. */
function ListEditor({
  name,
  legend,
  hint,
  children,
}: {
  name: IntakeField;
  legend: ReactNode;
  hint?: ReactNode;
  children: ReactNode;
}) {
  const listError = useContext(StepFormContext).errors[name]?.[0];
  const id = idFor(name);
  return (
    <fieldset className="list-editor" id={id} aria-describedby={describedBy(id, hint, listError)}>
      <legend>{legend}</legend>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {children}
      <ErrorText id={id} error={listError} />
    </fieldset>
  );
}

/** A full list's box and button (spec 1: disabled at the cap, e.g. 3 competitor URLs), with the reason beside them. */
function FullListItem({ id, itemLabel, max, type }: { id: string; itemLabel: string; max: number; type: string }) {
  return (
    <li>
      <div className="field">
        <label htmlFor={id}>Add a {inSentence(itemLabel)}</label>
        <p className="hint" id={`${id}-why`}>
          That's the most we need ({max}). Remove one to add another.
        </p>
        <input
          id={id}
          type="text"
          inputMode={type === "url" ? "url" : undefined}
          disabled
          aria-describedby={`${id}-why`}
        />
      </div>
      <button type="button" className="button button-small" disabled aria-describedby={`${id}-why`}>
        Add {inSentence(itemLabel)}
      </button>
    </li>
  );
}

function RowFieldInput({ field, path }: { field: RowField; path: IntakeFieldPath }) {
  if (field.type === "checkbox") return <Checkbox name={path} label={field.label} hint={field.hint} />;
  if (field.type === "select")
    return (
      <SelectField
        name={path}
        label={field.label}
        options={field.options ?? []}
        hint={field.hint}
        initial={field.initial}
      />
    );
  return <TextField name={path} label={field.label} type={field.type} hint={field.hint} />;
}

function ShownWhenTicked({ name, children }: { name: IntakeFieldPath; children: ReactNode }) {
  const ticked = useLiveValue(name);
  return <When show={ticked === "on"}>{children}</When>;
}

type RowsEditorProps = Omit<RowList, "legend" | "hint"> & {
  name: IntakeField;
  legend: ReactNode;
  hint?: ReactNode;
  renderExtra?: (index: number) => ReactNode;
};

/** Rows of several fields (services, testimonials, staff…): saved rows, each removable, and one empty row to add another. */
export function RowsEditor({ name, legend, itemLabel, fields, max, keyField, hint, renderExtra }: RowsEditorProps) {
  const { values, focusAdd } = useContext(StepFormContext);
  // A row with anything typed in stays on the form (the server says what it is missing); blank rows go.
  const typed = (r: Record<string, unknown>) =>
    Boolean(r[keyField]) || fields.some((f) => f.type !== "select" && r[f.key]);
  // Each row's id: the list's own (list-ids.ts), or a photo's record id.
  const rows = withIds<Record<string, unknown> | undefined>(values, name, (r) => Boolean(r && typed(r))).map(
    ({ item, id }) => ({ id: id ?? (typeof item?.id === "string" ? item.id : undefined) }),
  );
  const slots = rows.length < max ? rows.length + 1 : rows.length;
  return (
    <ListEditor name={name} legend={legend} hint={hint}>
      {Array.from({ length: slots }, (_, i) => {
        const isNew = i === rows.length;
        const rowId = rows[i]?.id;
        return (
          <fieldset key={rowId ?? `new-${i}`} className="row">
            <legend>{isNew ? `Add a ${inSentence(itemLabel)}` : `${itemLabel} ${i + 1}`}</legend>
            {fields.map((field) => {
              const input = <RowFieldInput field={field} path={`${name}[${i}].${field.key}`} />;
              return field.shownWhen ? (
                <ShownWhenTicked key={field.key} name={`${name}[${i}].${field.shownWhen}`}>
                  {input}
                </ShownWhenTicked>
              ) : (
                <Fragment key={field.key}>{input}</Fragment>
              );
            })}
            {renderExtra?.(i)}
            {name !== "photoMetadata" ? <ItemId name={name as IdListField} row={i} id={rowId} /> : null}
            {isNew ? (
              <button
                type="submit"
                name="intent"
                value={INTENT_VALUES.stay}
                className="button button-small"
                // eslint-disable-next-line jsx-a11y/no-autofocus -- WCAG 2.4.3: without scripts the page after Add starts here, as with them
                autoFocus={focusAdd === name || undefined}
              >
                Add {inSentence(itemLabel)}
              </button>
            ) : rowId ? (
              <RemoveButton name={name} id={rowId} row={i} label={`${inSentence(itemLabel)} ${i + 1}`} />
            ) : null}
          </fieldset>
        );
      })}
    </ListEditor>
  );
}
