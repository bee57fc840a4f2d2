import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { CheckboxGroup } from "~/components/intake/fields";
import { LABELS } from "~/domain/intake/labels";
import { IntakeStepPage, useStepExtras } from "~/components/intake/StepPage";
import { PAGES, REQUIRED_PAGES, SECTIONS } from "~/domain/intake/options";
import { stepAction, stepLoader } from "~/server/intake/step.server";

export { ErrorBoundary, meta, shouldRevalidate } from "./_intake-step";

/** Intake step 7, Pages: its fields (spec 1 section 2, "Step contents"); loader and action in server/intake/step.server.ts. */
export const loader = (args: LoaderFunctionArgs) => stepLoader(args, 7);
export const action = (args: ActionFunctionArgs) => stepAction(args, 7);

export default function Step7() {
  return (
    <IntakeStepPage>
      <Pages />
    </IntakeStepPage>
  );
}

function Pages() {
  const { pagesIncluded } = useStepExtras();
  return (
    <>
      {pagesIncluded === null ? null : <p className="hint">{pagesIncluded}</p>}
      <CheckboxGroup name="pagesNeeded" legend={LABELS.pagesNeeded} options={PAGES} locked={REQUIRED_PAGES} />
      <CheckboxGroup name="mustHaveSections" legend={LABELS.mustHaveSections} options={SECTIONS} />
    </>
  );
}
