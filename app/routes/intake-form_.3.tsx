import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { RadioGroup, RowsEditor, SelectField, useLiveValue, When } from "~/components/intake/fields";
import { LABELS, ROWS } from "~/domain/intake/labels";
import { IntakeStepPage } from "~/components/intake/StepPage";
import { PRICING_APPROACHES, SERVICES_GROUPINGS } from "~/domain/intake/options";
import { stepAction, stepLoader } from "~/server/intake/step.server";

export { ErrorBoundary, meta, shouldRevalidate } from "./_intake-step";

/** Intake step 3, Services: its fields (spec 1 section 2, "Step contents"); loader and action in server/intake/step.server.ts. */
export const loader = (args: LoaderFunctionArgs) => stepLoader(args, 3);
export const action = (args: ActionFunctionArgs) => stepAction(args, 3);

export default function Step3() {
  return (
    <IntakeStepPage>
      <Services />
    </IntakeStepPage>
  );
}

const countOf = (v: unknown) => (Array.isArray(v) ? v.filter(Boolean).length : v ? 1 : 0);

function Services() {
  const names = useLiveValue("servicesList[1].name");
  return (
    <>
      <RowsEditor name="servicesList" {...ROWS.servicesList} />
      <SelectField name="pricingApproach" label={LABELS.pricingApproach} options={PRICING_APPROACHES} />
      <When show={countOf(names) > 0}>
        <RadioGroup name="servicesGrouping" legend={LABELS.servicesGrouping} options={SERVICES_GROUPINGS} />
      </When>
    </>
  );
}
