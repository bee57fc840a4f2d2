import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { RowsEditor, SelectWithOther, TextField, TextList } from "~/components/intake/fields";
import { LABELS, LIST_ITEMS, ROWS } from "~/domain/intake/labels";
import { IntakeStepPage, useStepExtras } from "~/components/intake/StepPage";
import { FileBox, STEP_UPLOADS } from "~/components/intake/uploads";
import { STYLES } from "~/domain/intake/options";
import { stepAction, stepLoader } from "~/server/intake/step.server";

export { ErrorBoundary, meta, shouldRevalidate } from "./_intake-step";

/**
 * Intake step 4, Branding: its fields (spec 1 section 2, "Step contents"), with the logo and photo
 * uploads (a multipart form; with JavaScript each file uploads on its own, components/intake/uploads.tsx);
 * loader and action in server/intake/step.server.ts.
 */
export const loader = (args: LoaderFunctionArgs) => stepLoader(args, 4);
export const action = (args: ActionFunctionArgs) => stepAction(args, 4);

export default function Step4() {
  return (
    <IntakeStepPage uploads={STEP_UPLOADS}>
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
        hint="The feel of your brand, which your logo, colours and photos carry."
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
