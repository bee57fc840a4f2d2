import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Checkbox } from "~/components/intake/fields";
import { LABELS } from "~/domain/intake/labels";
import { IntakeStepPage } from "~/components/intake/StepPage";
import { stepAction, stepLoader } from "~/server/intake/step.server";

export { ErrorBoundary, meta, shouldRevalidate } from "./_intake-step";

/** Intake step 9, Legal: its fields (spec 1 section 2, "Step contents"); loader and action in server/intake/step.server.ts. */
export const loader = (args: LoaderFunctionArgs) => stepLoader(args, 9);
export const action = (args: ActionFunctionArgs) => stepAction(args, 9);

export default function Step9() {
  return (
    <IntakeStepPage>
      <Legal />
    </IntakeStepPage>
  );
}

function Legal() {
  return (
    <>
      <fieldset className="choices">
        <legend>Which legal pages do you need?</legend>
        <Checkbox name="needsPrivacyPolicy" label={LABELS.needsPrivacyPolicy} />
        <Checkbox name="needsTermsConditions" label={LABELS.needsTermsConditions} />
        <Checkbox name="needsFacebookDisclaimer" label={LABELS.needsFacebookDisclaimer} />
      </fieldset>
      <Checkbox
        name="legalPagesDisclaimer"
        required
        label="Legal Pages Acknowledgement: I understand these pages are general templates, and I'm responsible for checking they suit my business."
      />
    </>
  );
}
