import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { RadioGroup, SelectField } from "~/components/intake/fields";
import { LABELS } from "~/domain/intake/labels";
import { IntakeStepPage, useStepExtras } from "~/components/intake/StepPage";
import { HOSTING_PREFERENCES, PACKAGE_STYLES } from "~/domain/intake/options";
import { stepAction, stepLoader } from "~/server/intake/step.server";

export { ErrorBoundary, meta, shouldRevalidate } from "./_intake-step";

/** Intake step 11, Package & Payment: its fields (spec 1 section 2, "Step contents"); loader and action in server/intake/step.server.ts. */
export const loader = (args: LoaderFunctionArgs) => stepLoader(args, 11);
export const action = (args: ActionFunctionArgs) => stepAction(args, 11);

export default function Step11() {
  return (
    <IntakeStepPage>
      <PackagePayment />
    </IntakeStepPage>
  );
}

function PackagePayment() {
  const { paidFor } = useStepExtras();
  return (
    <>
      <p className="flash flash-success">
        <strong>Payment Complete</strong> {paidFor} Nothing more to pay.
      </p>
      <RadioGroup
        name="packageSelected"
        legend={LABELS.packageSelected}
        options={PACKAGE_STYLES}
        hint="The design we start your website from: its fonts, spacing and buttons. Your brand's look (step 4) and layout (step 10) go on top."
      />
      <SelectField name="hostingPreference" label={LABELS.hostingPreference} options={HOSTING_PREFERENCES} />
    </>
  );
}
