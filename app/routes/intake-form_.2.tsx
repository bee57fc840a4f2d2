import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { RadioGroup, SelectWithOther, TextField, YES_NO } from "~/components/intake/fields";
import { LABELS } from "~/domain/intake/labels";
import { IntakeStepPage } from "~/components/intake/StepPage";
import { WEBSITE_PURPOSES } from "~/domain/intake/options";
import { stepAction, stepLoader } from "~/server/intake/step.server";

export { ErrorBoundary, meta, shouldRevalidate } from "./_intake-step";

/** Intake step 2, Goals & Offer: its fields (spec 1 section 2, "Step contents"); loader and action in server/intake/step.server.ts. */
export const loader = (args: LoaderFunctionArgs) => stepLoader(args, 2);
export const action = (args: ActionFunctionArgs) => stepAction(args, 2);

export default function Step2() {
  return (
    <IntakeStepPage>
      <GoalsOffer />
    </IntakeStepPage>
  );
}

function GoalsOffer() {
  return (
    <>
      <SelectWithOther
        name="websitePurpose"
        otherName="websitePurposeOther"
        label={LABELS.websitePurpose}
        otherLabel={LABELS.websitePurposeOther}
        options={WEBSITE_PURPOSES}
        required
      />
      <TextField name="mainCta" label={LABELS.mainCta} required hint="e.g. Call for a free quote" />
      <TextField name="specificOffer" label={LABELS.specificOffer} hint="e.g. 10% off your first service" />
      <RadioGroup name="needsContactForm" legend={LABELS.needsContactForm} options={YES_NO} />
    </>
  );
}
