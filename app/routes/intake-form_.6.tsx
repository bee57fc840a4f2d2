import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { RadioGroup, RowsEditor, YES_NO } from "~/components/intake/fields";
import { LABELS, ROWS } from "~/domain/intake/labels";
import { IntakeStepPage } from "~/components/intake/StepPage";
import { stepAction, stepLoader } from "~/server/intake/step.server";

export { ErrorBoundary, meta, shouldRevalidate } from "./_intake-step";

/** Intake step 6, Reviews: its fields (spec 1 section 2, "Step contents"); loader and action in server/intake/step.server.ts. */
export const loader = (args: LoaderFunctionArgs) => stepLoader(args, 6);
export const action = (args: ActionFunctionArgs) => stepAction(args, 6);

export default function Step6() {
  return (
    <IntakeStepPage>
      <Reviews />
    </IntakeStepPage>
  );
}

function Reviews() {
  return (
    <>
      <RowsEditor name="testimonials" {...ROWS.testimonials} />
      <RowsEditor name="reviewLinks" {...ROWS.reviewLinks} />
      <RadioGroup name="wantsReviewAutomation" legend={LABELS.wantsReviewAutomation} options={YES_NO} />
      <RadioGroup name="wantsReviewSystem" legend={LABELS.wantsReviewSystem} options={YES_NO} />
    </>
  );
}
