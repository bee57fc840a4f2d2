import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useContext, type ReactNode } from "react";
import {
  describedBy,
  ErrorText,
  RowsEditor,
  SelectWithOther,
  StepFormContext,
  TextField,
  TextList,
} from "~/components/intake/fields";
import { LABELS, LIST_ITEMS, ROWS } from "~/components/intake/labels";
import { IntakeStepPage, useStepExtras } from "~/components/intake/StepPage";
import { STYLES } from "~/domain/intake/options";
import { stepAction, stepLoader } from "~/server/intake-step.server";

export { ErrorBoundary, meta, shouldRevalidate } from "~/components/intake/StepPage";

/**
 * Intake step 4, Branding: its fields (spec 1 section 2, "Step contents"), with the logo and photo
 * uploads (a multipart form; with JavaScript each file uploads on its own, components/intake/uploads.tsx);
 * loader and action in server/intake-step.server.ts.
 */
export const loader = (args: LoaderFunctionArgs) => stepLoader(args, 4);
export const action = (args: ActionFunctionArgs) => stepAction(args, 4);

export default function Step4() {
  return (
    <IntakeStepPage>
      <Branding />
    </IntakeStepPage>
  );
}

function Branding() {
  const extras = useStepExtras();
  return (
    <>
      <fieldset>
        <legend>Logo</legend>
        {extras.logo ? (
          <p className="thumbs">
            <img src={extras.logo.url} alt="Your current logo" width={120} height={120} />
          </p>
        ) : null}
        <FileBox
          name="logo"
          label={extras.logo?.uploaded ? "Replace your logo" : "Upload your logo"}
          hint={extras.uploadLimits.logo}
          accept="image/png,image/jpeg,image/svg+xml,.png,.jpg,.jpeg,.svg"
        />
        <TextField name="logoUrl" label={LABELS.logoUrl} type="url" hint="Used only when no file is uploaded." />
      </fieldset>
      <TextList
        name="brandColors"
        legend={LABELS.brandColors}
        itemLabel={LIST_ITEMS.brandColors}
        max={10}
        hint="e.g. Navy blue, or #1a3c6e"
      />
      <SelectWithOther
        name="stylePreference"
        otherName="stylePreferenceOther"
        label={LABELS.stylePreference}
        otherLabel={LABELS.stylePreferenceOther}
        options={STYLES}
      />
      <fieldset>
        <legend>Photos</legend>
        <FileBox
          name="photos"
          label="Add photos"
          hint={extras.uploadLimits.photos}
          accept="image/png,image/jpeg,image/webp,image/gif"
          multiple
        />
        {extras.photos.length ? (
          <RowsEditor
            name="photoMetadata"
            {...ROWS.photoMetadata}
            max={extras.photos.length}
            renderExtra={(i) => (
              <>
                <img src={extras.photos[i]?.url} alt="" width={160} height={110} className="thumbs" />
                <input type="hidden" name={`photoMetadata[${i}].id`} value={extras.photos[i]?.id ?? ""} />
              </>
            )}
          />
        ) : null}
      </fieldset>
    </>
  );
}

/** A file box: its hint and, after a post that refused a file, why, both tied to it (WCAG 1.3.1, 3.3.1). */
function FileBox(props: {
  name: "logo" | "photos";
  label: ReactNode;
  hint: string;
  accept: string;
  multiple?: boolean;
}) {
  const error = useContext(StepFormContext).errors[props.name]?.join(" ");
  const id = `f-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <p className="hint" id={`${id}-hint`}>
        {props.hint}
      </p>
      <input
        id={id}
        type="file"
        name={props.name}
        multiple={props.multiple}
        accept={props.accept}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, true, error)}
      />
      <ErrorText id={id} error={error} />
    </div>
  );
}
