import type { ReactNode } from "react";
import {
  BUSINESS_TYPES,
  HOSTING_PREFERENCES,
  PACKAGE_STYLES,
  PAGES,
  PRICING_APPROACHES,
  REQUIRED_PAGES,
  RETENTION_PERIODS,
  SECTIONS,
  SERVICES_GROUPINGS,
  STYLES,
  WEBSITE_PURPOSES,
  type Option,
} from "~/domain/intake/options";
import { AI_CHOICE } from "~/domain/intake/schemas";
import {
  Checkbox,
  CheckboxGroup,
  RadioGroup,
  RowsEditor,
  SelectField,
  SelectWithOther,
  TextField,
  TextList,
  useLiveValue,
  When,
  YES_NO,
} from "./fields";
import { LABELS, LIST_ITEMS, ROWS } from "./labels";
import { PrivacyPreview, type PreviewData } from "./PrivacyPreview";

export type StepExtras = {
  logo: { url: string; uploaded: boolean } | null;
  photos: { id: string; url: string; fileName: string }[];
  uploadLimits: { logo: string; photos: string };
  mapsSearchUrl: string | null;
  preview: PreviewData | null;
};

const countOf = (v: unknown) => (Array.isArray(v) ? v.filter(Boolean).length : v ? 1 : 0);

/** The fields of one intake step (spec 1 section 2, "Step contents"). */
export function StepBody({ step, extras }: { step: number; extras: StepExtras }): ReactNode {
  switch (step) {
    case 1:
      return <BusinessBasics />;
    case 2:
      return <GoalsOffer />;
    case 3:
      return <Services />;
    case 4:
      return <Branding extras={extras} />;
    case 5:
      return <SeoMarketing mapsSearchUrl={extras.mapsSearchUrl} />;
    case 6:
      return (
        <>
          <RowsEditor name="testimonials" {...ROWS.testimonials} />
          <RowsEditor name="reviewLinks" {...ROWS.reviewLinks} />
          <RadioGroup name="wantsReviewAutomation" legend={LABELS.wantsReviewAutomation} options={YES_NO} />
          <RadioGroup name="wantsReviewSystem" legend={LABELS.wantsReviewSystem} options={YES_NO} />
        </>
      );
    case 7:
      return (
        <>
          <CheckboxGroup name="pagesNeeded" legend={LABELS.pagesNeeded} options={PAGES} locked={REQUIRED_PAGES} />
          <CheckboxGroup name="mustHaveSections" legend={LABELS.mustHaveSections} options={SECTIONS} />
        </>
      );
    case 8:
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
    case 9:
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
    case 10:
      return <Integrations />;
    case 11:
      return (
        <>
          <p className="flash flash-success">
            <strong>Payment Complete</strong> Your 24-Hour Website is paid for. Nothing more to pay.
          </p>
          <RadioGroup name="packageSelected" legend={LABELS.packageSelected} options={PACKAGE_STYLES} />
          <SelectField name="hostingPreference" label={LABELS.hostingPreference} options={HOSTING_PREFERENCES} />
        </>
      );
    case 12:
      return <PrivacyConsent />;
    case 13:
      return <PrivacyPreview preview={extras.preview} />;
    case 14:
      return (
        <TextField
          name="additionalDetails"
          label={LABELS.additionalDetails}
          type="textarea"
          rows={6}
          hint="Private: this is never sent to AI. Up to 5,000 characters."
        />
      );
    default:
      return null;
  }
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
      <TextField name="physicalAddress" label={LABELS.physicalAddress} autoComplete="street-address" />
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

function GoalsOffer() {
  return (
    <>
      <SelectWithOther
        name="websitePurpose"
        otherName="websitePurposeOther"
        label={LABELS.websitePurpose}
        otherLabel={LABELS.websitePurposeOther}
        options={WEBSITE_PURPOSES}
        required
      />
      <TextField name="mainCta" label={LABELS.mainCta} required hint="e.g. Call for a free quote" />
      <TextField name="specificOffer" label={LABELS.specificOffer} hint="e.g. 10% off your first service" />
      <RadioGroup name="needsContactForm" legend={LABELS.needsContactForm} options={YES_NO} />
    </>
  );
}

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

function Branding({ extras }: { extras: StepExtras }) {
  return (
    <>
      <fieldset>
        <legend>Logo</legend>
        {extras.logo ? (
          <p className="thumbs">
            <img src={extras.logo.url} alt="Your current logo" width={120} height={120} />
          </p>
        ) : null}
        <div className="field">
          <label htmlFor="f-logo">{extras.logo?.uploaded ? "Replace your logo" : "Upload your logo"}</label>
          <p className="hint">{extras.uploadLimits.logo}</p>
          <input id="f-logo" type="file" name="logo" accept="image/png,image/jpeg,image/svg+xml,.png,.jpg,.jpeg,.svg" />
        </div>
        <TextField name="logoUrl" label={LABELS.logoUrl} type="url" hint="Used only when no file is uploaded." />
      </fieldset>
      <TextList
        name="brandColors"
        legend={LABELS.brandColors}
        itemLabel={LIST_ITEMS.brandColors}
        max={10}
        hint="e.g. Navy blue, or #1a3c6e"
      />
      <SelectWithOther
        name="stylePreference"
        otherName="stylePreferenceOther"
        label={LABELS.stylePreference}
        otherLabel={LABELS.stylePreferenceOther}
        options={STYLES}
      />
      <fieldset>
        <legend>Photos</legend>
        <div className="field">
          <label htmlFor="f-photos">Add photos</label>
          <p className="hint">{extras.uploadLimits.photos}</p>
          <input id="f-photos" type="file" name="photos" multiple accept="image/png,image/jpeg,image/webp,image/gif" />
        </div>
        {extras.photos.length ? (
          <RowsEditor
            name="photoMetadata"
            {...ROWS.photoMetadata}
            max={extras.photos.length}
            renderExtra={(i) => (
              <>
                <img src={extras.photos[i]?.url} alt="" width={160} height={110} className="thumbs" />
                <input type="hidden" name={`photoMetadata[${i}].id`} value={extras.photos[i]?.id ?? ""} />
              </>
            )}
          />
        ) : null}
      </fieldset>
    </>
  );
}

function SeoMarketing({ mapsSearchUrl }: { mapsSearchUrl: string | null }) {
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
        <TextField name="socialLinks.facebook" label={LABELS["socialLinks.facebook"]} type="url" />
        <TextField name="socialLinks.instagram" label={LABELS["socialLinks.instagram"]} type="url" />
        <TextField name="socialLinks.youtube" label={LABELS["socialLinks.youtube"]} type="url" />
        <TextField name="socialLinks.linkedin" label={LABELS["socialLinks.linkedin"]} type="url" />
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

function Integrations() {
  return (
    <>
      <TextField name="bookingSystem" label={LABELS.bookingSystem} />
      <TextField name="googleAnalyticsId" label={LABELS.googleAnalyticsId} hint="e.g. G-XXXXXXX" />
      <RowsEditor name="staffBios" {...ROWS.staffBios} />
      <TextList name="videoUrls" legend={LABELS.videoUrls} itemLabel={LIST_ITEMS.videoUrls} max={20} type="url" />
      <SelectWithOther
        name="websiteStylePreference"
        otherName="websiteStylePreferenceOther"
        label={LABELS.websiteStylePreference}
        otherLabel={LABELS.websiteStylePreferenceOther}
        options={STYLES}
      />
      <TextField name="preferredLaunchDate" label={LABELS.preferredLaunchDate} type="date" />
    </>
  );
}

const AI_CHOICES: Option[] = [
  {
    value: AI_CHOICE.ai,
    label: "Use AI tools to help draft my website (fastest). Please tick the four consents below.",
  },
  { value: AI_CHOICE.byHand, label: "Build my website by hand, without AI. Nothing about my business is sent to AI." },
];

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
      <Checkbox name="allowShowcase" label="You may show my finished website in your portfolio (optional)." />
      <RadioGroup name="dataRetentionPeriod" legend={LABELS.dataRetentionPeriod} options={RETENTION_PERIODS} />
    </>
  );
}
