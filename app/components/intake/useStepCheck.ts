import { useEffect, useRef, useState, type FormEvent } from "react";
import { checkForm, type FormRules } from "~/domain/form-rules";

type Errors = Record<string, string[] | undefined>;

/**
 * The browser's own check of an intake step (in place of Conform's `useForm`, which cost the page
 * about 10 KB gzip): before a post, the step's rules (`stepRules`, derived on the server from the
 * step's schema, messages and all) for the button pressed; a failed check keeps the post from
 * leaving, shows each message on its field and focuses the first. Every button is checked, as the
 * server checks every post (Back, Save & Exit and Remove by the draft rules; their `formNoValidate`
 * only keeps the browser's own required-field check away). After a check, each field is checked
 * again as it is edited. A server's answer (`answered`, a refused post's messages) replaces what the browser found.
 */
export function useStepCheck(
  formId: string,
  rules: FormRules,
  answered: Record<string, string[] | null> | null | undefined,
) {
  const [errors, setErrors] = useState<Errors>(() => messagesOf(answered));
  // The button of the last check (null: nothing checked yet, so typing shows no message).
  const intent = useRef<string | null>(null);

  useEffect(() => {
    setErrors(messagesOf(answered));
    if (answered) intent.current ??= "";
  }, [answered]);

  useEffect(() => {
    const recheck = (event: Event) => {
      const target = event.target as HTMLInputElement;
      const form = target.form;
      if (intent.current === null || form?.id !== formId || !target.name) return;
      const data = new FormData(form);
      data.set("intent", intent.current);
      const message = checkForm(rules, data)?.[target.name];
      setErrors((shown) => (shown[target.name] === message ? shown : { ...shown, [target.name]: message }));
    };
    document.addEventListener("input", recheck);
    document.addEventListener("change", recheck);
    return () => {
      document.removeEventListener("input", recheck);
      document.removeEventListener("change", recheck);
    };
  }, [formId, rules]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const form = event.currentTarget;
    const data = new FormData(form, submitter);
    intent.current = String(data.get("intent") ?? "");
    const found = checkForm(rules, data);
    setErrors(found ?? {});
    if (!found) return;
    event.preventDefault();
    const first = [...form.elements].find((el) => found[(el as HTMLInputElement).name]) as HTMLElement | undefined;
    first?.focus();
  };

  const { "": formErrors, ...fieldErrors } = errors;
  return { errors: fieldErrors, formError: formErrors?.[0], onSubmit };
}

/** A server's messages by field, without the fields it cleared (null). */
const messagesOf = (answered: Record<string, string[] | null> | null | undefined): Errors =>
  Object.fromEntries(
    Object.entries(answered ?? {}).filter((entry): entry is [string, string[]] => Boolean(entry[1]?.length)),
  );
