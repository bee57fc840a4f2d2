import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { RowsEditor, SelectWithOther, TextField, TextList } from "~/components/intake/fields";
import { LABELS, LIST_ITEMS, ROWS } from "~/domain/intake/labels";
import { IntakeStepPage } from "~/components/intake/StepPage";
import { STYLES } from "~/domain/intake/options";
import { stepAction, stepLoader } from "~/server/intake/step.server";

export { ErrorBoundary, meta, shouldRevalidate } from "./_intake-step";

/** Intake step 10, Integrations & Launch: its fields (spec 1 section 2, "Step contents"); loader and action in server/intake/step.server.ts. */
export const loader = (args: LoaderFunctionArgs) => stepLoader(args, 10);
export const action = (args: ActionFunctionArgs) => stepAction(args, 10);

export default function Step10() {
  return (
    <IntakeStepPage>
      <Integrations />
    </IntakeStepPage>
  );
}

function Integrations() {
  return (
    <>
      <TextField name="bookingSystem" label={LABELS.bookingSystem} />
      <TextField name="googleAnalyticsId" label={LABELS.googleAnalyticsId} hint="e.g. G-XXXXXXX" />
      <RowsEditor name="staffBios" {...ROWS.staffBios} />
      <TextList name="videoUrls" legend={LABELS.videoUrls} itemLabel={LIST_ITEMS.videoUrls} max={20} type="url" />
      <SelectWithOther
        name="websiteStylePreference"
        otherName="websiteStylePreferenceOther"
        label={LABELS.websiteStylePreference}
        otherLabel={LABELS.websiteStylePreferenceOther}
        options={STYLES}
        hint="How your pages are laid out: roomy or packed, plain or full of pictures."
      />
      <TextField name="preferredLaunchDate" label={LABELS.preferredLaunchDate} type="date" />
    </>
  );
}
