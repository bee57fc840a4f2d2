import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "~/components/useForm";
import { Form } from "@remix-run/react";
import { failedFields, Field, FormAlert, FormKey } from "../forms";
import type { CouponFormValue } from "~/domain/admin/coupons.schema";
import type { FormRules } from "~/domain/form-rules";

/** What "allowed" means: an address typed at checkout proves nothing by itself. */
const COUPON_RESTRICTION_HINT =
  "Only these buyers may use the coupon. A typed address proves nothing, so unless the buyer is signed in to an account that confirmed that address, the order's links are only e-mailed to it (the buyer's browser never gets them).";

/** The fields in the order they are shown, as the form's alert names them when they fail. */
const COUPON_LABELS: Partial<Record<keyof CouponFormValue, string>> = {
  code: "Code",
  discount_type: "Discount type",
  discount_value: "Discount value",
  max_uses: "Max uses",
  valid_until: "Valid until",
  allowed_emails: "Allowed emails",
  allowed_domains: "Allowed domains",
};

/** The coupon form, for creating and editing: the server parses it with its schema; the browser checks the rules derived from it. */
export function CouponForm({
  intent,
  submitLabel,
  lastResult,
  defaultValue,
  rules,
}: {
  intent: string;
  submitLabel: string;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Record<string, string>;
  /** `formRules(CouponFormSchema)`, from the page's loader. */
  rules: FormRules;
}) {
  const [form, fields] = useForm({
    lastResult,
    defaultValue: defaultValue ?? { active: "on", discount_type: "percentage" },
    rules,
    shouldRevalidate: "onInput",
    intent,
  });
  const failed = failedFields(fields, COUPON_LABELS);
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="coupon-form">
      <FormAlert message={form.errors?.[0]} failed={failed} />
      <FormKey />
      <div className="edit-grid">
        <Field id={fields.code.id} label="Code (required)" errors={fields.code.errors} errorId={fields.code.errorId}>
          <input
            {...getInputProps(fields.code, { type: "text" })}
            maxLength={40}
            autoComplete="off"
            className="upper"
          />
        </Field>
        <Field
          id={fields.discount_type.id}
          label="Discount type"
          errors={fields.discount_type.errors}
          errorId={fields.discount_type.errorId}
        >
          <select {...getSelectProps(fields.discount_type)}>
            <option value="percentage">Percentage (%)</option>
            <option value="fixed">Fixed amount ($)</option>
          </select>
        </Field>
        <Field
          id={fields.discount_value.id}
          label="Discount value (required)"
          hint="A percentage from 1 to 100, or whole dollars."
          errors={fields.discount_value.errors}
          errorId={fields.discount_value.errorId}
        >
          <input {...getInputProps(fields.discount_value, { type: "number" })} min={1} step="any" inputMode="decimal" />
        </Field>
        <Field
          id={fields.max_uses.id}
          label="Max uses (optional)"
          hint="Leave empty for unlimited."
          errors={fields.max_uses.errors}
          errorId={fields.max_uses.errorId}
        >
          <input {...getInputProps(fields.max_uses, { type: "number" })} min={1} step={1} />
        </Field>
        <Field
          id={fields.valid_until.id}
          label="Valid until (optional)"
          errors={fields.valid_until.errors}
          errorId={fields.valid_until.errorId}
        >
          <input {...getInputProps(fields.valid_until, { type: "date" })} />
        </Field>
        <div className="field">
          <label className="choice" htmlFor={fields.active.id}>
            <input {...getInputProps(fields.active, { type: "checkbox" })} /> Active
          </label>
        </div>
        <Field
          id={fields.allowed_emails.id}
          label="Allowed emails (optional, comma-separated)"
          hint={COUPON_RESTRICTION_HINT}
          errors={fields.allowed_emails.errors}
          errorId={fields.allowed_emails.errorId}
        >
          <input {...getInputProps(fields.allowed_emails, { type: "text" })} />
        </Field>
        <Field
          id={fields.allowed_domains.id}
          label="Allowed domains (optional, comma-separated)"
          hint="Any address at these domains, such as bigcorp.example.com.au, may use it, on the same terms."
          errors={fields.allowed_domains.errors}
          errorId={fields.allowed_domains.errorId}
        >
          <input {...getInputProps(fields.allowed_domains, { type: "text" })} />
        </Field>
      </div>
      <button type="submit" name="intent" value={intent} className="button button-primary">
        {submitLabel}
      </button>
    </Form>
  );
}
