import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { TextField, TextList } from "~/components/intake/fields";
import { LABELS, LIST_ITEMS } from "~/domain/intake/labels";
import { IntakeStepPage } from "~/components/intake/StepPage";
import { stepAction, stepLoader } from "~/server/intake/step.server";

export { ErrorBoundary, meta, shouldRevalidate } from "./_intake-step";

/** Intake step 8, Content: its fields (spec 1 section 2, "Step contents"); loader and action in server/intake/step.server.ts. */
export const loader = (args: LoaderFunctionArgs) => stepLoader(args, 8);
export const action = (args: ActionFunctionArgs) => stepAction(args, 8);

export default function Step8() {
  return (
    <IntakeStepPage>
      <Content />
    </IntakeStepPage>
  );
}

function Content() {
  return (
    <>
      <TextField name="headline" label={LABELS.headline} hint="Up to 200 characters." />
      <TextList
        name="keyPoints"
        legend={LABELS.keyPoints}
        itemLabel={LIST_ITEMS.keyPoints}
        max={20}
        hint="Press Enter or Add to add each one."
      />
      <TextField
        name="existingContent"
        label={LABELS.existingContent}
        type="textarea"
        rows={8}
        hint="Up to 10,000 characters."
      />
    </>
  );
}
