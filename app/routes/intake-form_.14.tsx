import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { TextField } from "~/components/intake/fields";
import { LABELS } from "~/domain/intake/labels";
import { IntakeStepPage } from "~/components/intake/StepPage";
import { stepAction, stepLoader } from "~/server/intake/step.server";

export { ErrorBoundary, meta, shouldRevalidate } from "./_intake-step";

/** Intake step 14, Final Details: its fields (spec 1 section 2, "Step contents"); loader and action in server/intake/step.server.ts. */
export const loader = (args: LoaderFunctionArgs) => stepLoader(args, 14);
export const action = (args: ActionFunctionArgs) => stepAction(args, 14);

export default function Step14() {
  return (
    <IntakeStepPage>
      <FinalDetails />
    </IntakeStepPage>
  );
}

function FinalDetails() {
  return (
    <TextField
      name="additionalDetails"
      label={LABELS.additionalDetails}
      type="textarea"
      rows={6}
      hint="Private: this is never sent to AI. Up to 5,000 characters."
    />
  );
}
