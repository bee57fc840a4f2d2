import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { TextField, TextList } from "~/components/intake/fields";
import { LABELS, LIST_ITEMS } from "~/domain/intake/labels";
import { IntakeStepPage, useStepExtras } from "~/components/intake/StepPage";
import { stepAction, stepLoader } from "~/server/intake/step.server";

export { ErrorBoundary, meta, shouldRevalidate } from "./_intake-step";

/** Intake step 5, SEO & Marketing: its fields (spec 1 section 2, "Step contents"); loader and action in server/intake/step.server.ts. */
export const loader = (args: LoaderFunctionArgs) => stepLoader(args, 5);
export const action = (args: ActionFunctionArgs) => stepAction(args, 5);

/** A social field takes the profile's address or its handle (domain/intake/schemas.ts SOCIAL_PROFILES). */
const SOCIAL_HINT = "The page's address, or your handle (e.g. @smithplumbing).";

export default function Step5() {
  return (
    <IntakeStepPage>
      <SeoMarketing />
    </IntakeStepPage>
  );
}

function SeoMarketing() {
  const { mapsSearchUrl } = useStepExtras();
  return (
    <>
      <TextField
        name="primaryDomain"
        label={LABELS.primaryDomain}
        required
        hint="The domain you have, or would like (e.g. smithplumbing.com.au)."
      />
      <TextList name="targetKeywords" legend={LABELS.targetKeywords} itemLabel={LIST_ITEMS.targetKeywords} max={20} />
      <TextList
        name="competitorUrls"
        legend={LABELS.competitorUrls}
        itemLabel={LIST_ITEMS.competitorUrls}
        max={3}
        type="url"
      />
      <fieldset>
        <legend>{LABELS.socialLinks}</legend>
        <TextField name="socialLinks.facebook" label={LABELS["socialLinks.facebook"]} type="url" hint={SOCIAL_HINT} />
        <TextField name="socialLinks.instagram" label={LABELS["socialLinks.instagram"]} type="url" hint={SOCIAL_HINT} />
        <TextField name="socialLinks.youtube" label={LABELS["socialLinks.youtube"]} type="url" hint={SOCIAL_HINT} />
        <TextField name="socialLinks.linkedin" label={LABELS["socialLinks.linkedin"]} type="url" hint={SOCIAL_HINT} />
      </fieldset>
      <TextField name="googleBusinessUrl" label={LABELS.googleBusinessUrl} type="url" />
      {mapsSearchUrl ? (
        <p>
          <a href={mapsSearchUrl} target="_blank" rel="noopener noreferrer" className="button button-small">
            Find Google Business Profile<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </p>
      ) : null}
    </>
  );
}
