import { parse } from "@conform-to/react";
import { checkForm, type FormRules } from "~/domain/form-rules";

/**
 * Conform's `onValidate` for a form checked in the browser by its rules (derived from its schema
 * on the server by `formRules` and handed over by the loader): the spec's messages without
 * shipping Zod or the schema. The action still parses the post with the schema.
 * (Its own module: a page that only shows forms.tsx's alert does not load Conform with it.)
 */
export const validateWith =
  (rules: FormRules) =>
  ({ formData }: { formData: FormData }) =>
    parse(formData, {
      resolve: (value) => {
        const error = checkForm(rules, formData);
        return error ? { error } : { value };
      },
    });
