import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { PrivacyPreview } from "~/components/intake/PrivacyPreview";
import { IntakeStepPage, useStepExtras } from "~/components/intake/StepPage";
import { stepAction, stepLoader } from "~/server/intake/step.server";

export { ErrorBoundary, meta, shouldRevalidate } from "./_intake-step";

/**
 * Intake step 13, Privacy Preview: exactly what AI would see (no fields; Next waits until nothing AI
 * needs is missing); loader and action in server/intake/step.server.ts.
 */
export const loader = (args: LoaderFunctionArgs) => stepLoader(args, 13);
export const action = (args: ActionFunctionArgs) => stepAction(args, 13);

export default function Step13() {
  return (
    <IntakeStepPage>
      <Preview />
    </IntakeStepPage>
  );
}

function Preview() {
  return <PrivacyPreview preview={useStepExtras().preview} />;
}
