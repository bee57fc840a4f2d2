import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { RadioGroup, SelectWithOther, TextField, useLiveValue, When, YES_NO } from "~/components/intake/fields";
import { LABELS } from "~/domain/intake/labels";
import { IntakeStepPage } from "~/components/intake/StepPage";
import { BUSINESS_TYPES } from "~/domain/intake/options";
import { stepAction, stepLoader } from "~/server/intake/step.server";

export { ErrorBoundary, meta, shouldRevalidate } from "./_intake-step";

/** Intake step 1, Business Basics: its fields (spec 1 section 2, "Step contents"); loader and action in server/intake/step.server.ts. */
export const loader = (args: LoaderFunctionArgs) => stepLoader(args, 1);
export const action = (args: ActionFunctionArgs) => stepAction(args, 1);

export default function Step1() {
  return (
    <IntakeStepPage>
      <BusinessBasics />
    </IntakeStepPage>
  );
}

function BusinessBasics() {
  const hasDomain = useLiveValue("hasDomain");
  return (
    <>
      <TextField name="businessName" label={LABELS.businessName} required autoComplete="organization" />
      <TextField name="businessLegalName" label={LABELS.businessLegalName} />
      <TextField name="abnAcn" label={LABELS.abnAcn} />
      <TextField name="contactEmail" label={LABELS.contactEmail} type="email" required autoComplete="email" />
      <TextField name="contactPhone" label={LABELS.contactPhone} type="tel" required autoComplete="tel" />
      {/* street-address is for a box of several lines (the W3C checker refuses it on a one-line input). */}
      <TextField
        name="physicalAddress"
        label={LABELS.physicalAddress}
        type="textarea"
        rows={2}
        autoComplete="street-address"
      />
      <TextField
        name="serviceArea"
        label={LABELS.serviceArea}
        hint="Where do you work? e.g. Lismore and the Northern Rivers"
      />
      <TextField name="businessHours" label={LABELS.businessHours} />
      <RadioGroup name="hasDomain" legend={LABELS.hasDomain} options={YES_NO} />
      <When show={hasDomain === "yes"}>
        <TextField name="domainUrl" label={LABELS.domainUrl} type="url" placeholder="example.com.au" />
      </When>
      <SelectWithOther
        name="businessType"
        otherName="businessTypeOther"
        label={LABELS.businessType}
        otherLabel={LABELS.businessTypeOther}
        options={BUSINESS_TYPES}
        required
      />
      <TextField
        name="businessDescription"
        label={LABELS.businessDescription}
        type="textarea"
        required
        hint="10 to 2,000 characters."
      />
    </>
  );
}
