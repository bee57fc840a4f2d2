import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Checkbox, RadioGroup, useLiveValue, When } from "~/components/intake/fields";
import { LABELS } from "~/domain/intake/labels";
import { IntakeStepPage } from "~/components/intake/StepPage";
import { AI_CHOICE, AI_CHOICES, RETENTION_PERIODS } from "~/domain/intake/options";
import { stepAction, stepLoader } from "~/server/intake/step.server";

export { ErrorBoundary, meta, shouldRevalidate } from "./_intake-step";

/** Intake step 12, Privacy & Consent: its fields (spec 1 section 2, "Step contents"); loader and action in server/intake/step.server.ts. */
export const loader = (args: LoaderFunctionArgs) => stepLoader(args, 12);
export const action = (args: ActionFunctionArgs) => stepAction(args, 12);

export default function Step12() {
  return (
    <IntakeStepPage>
      <PrivacyConsent />
    </IntakeStepPage>
  );
}

function PrivacyConsent() {
  const choice = useLiveValue("aiChoice");
  return (
    <>
      <p>
        We may use AI tools to help draft your website. You decide what happens with your information, and you may opt
        out. Read our{" "}
        <a href="/privacy" target="_blank" rel="noopener">
          Privacy Policy
        </a>
        .
      </p>
      <RadioGroup name="aiChoice" legend={LABELS.aiChoice} options={AI_CHOICES} />
      <When show={choice !== AI_CHOICE.byHand}>
        <fieldset className="choices">
          <legend>Required consents for AI-assisted drafting</legend>
          <Checkbox
            name="allowAIDataProcessing"
            required
            label="I allow my business information to be processed by AI to help build my website."
          />
          <Checkbox
            name="allowDataForWebsiteGeneration"
            required
            label="I allow my information to be used to generate my website."
          />
          <Checkbox
            name="understandObfuscation"
            required
            label="I understand that protected details are generalised and private details are never sent to AI."
          />
          <Checkbox
            name="understandDataUsage"
            required
            label="I understand how my data is used, as explained in the Privacy Policy."
          />
        </fieldset>
      </When>
      <Checkbox name="allowShowcase" label={LABELS.allowShowcase} />
      <RadioGroup name="dataRetentionPeriod" legend={LABELS.dataRetentionPeriod} options={RETENTION_PERIODS} />
    </>
  );
}
