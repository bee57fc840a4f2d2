import type { ReactNode } from "react";
import {
  BUSINESS_TYPES,
  HOSTING_PREFERENCES,
  PACKAGE_STYLES,
  PAGES,
  PHOTO_CROPS,
  PHOTO_PLACEMENTS,
  PHOTO_PRIORITIES,
  PRICING_APPROACHES,
  REQUIRED_PAGES,
  RETENTION_PERIODS,
  SECTIONS,
  SERVICES_GROUPINGS,
  STYLES,
  WEBSITE_PURPOSES,
} from "~/domain/intake/options";
import { Checkbox, CheckboxGroup, RadioGroup, RowsEditor, SelectField, SelectWithOther, TextField, TextList, useLiveValue, When, YES_NO } from "./fields";

export type StepExtras = {
  logo: { url: string; uploaded: boolean } | null;
  photos: { id: string; url: string; fileName: string }[];
  uploadLimits: { logo: string; photos: string };
  mapsSearchUrl: string | null;
  preview: { data: Record<string, unknown>; missing: string | null } | null;
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
          <RowsEditor
            name="testimonials"
            legend="Testimonials from your customers"
            itemLabel="Testimonial"
            keyField="text"
            max={50}
            hint="A testimonial needs both the customer's name and what they said."
            fields={[
              { key: "author", label: "Customer's name" },
              { key: "text", label: "What they said", type: "textarea" },
              { key: "rating", label: "Rating", type: "select", initial: "5", options: ["5", "4", "3", "2", "1"].map((v) => ({ value: v, label: `${v} stars` })) },
            ]}
          />
          <RowsEditor
            name="reviewLinks"
            legend="Where people review you"
            itemLabel="Review link"
            keyField="id"
            max={20}
            fields={[
              { key: "platform", label: "Platform (e.g. Google, Facebook)" },
              { key: "url", label: "Link", type: "url" },
            ]}
          />
          <RadioGroup name="wantsReviewAutomation" legend="Would you like us to ask your customers for reviews automatically?" options={YES_NO} />
          <RadioGroup name="wantsReviewSystem" legend="Would you like a reviews section on your website?" options={YES_NO} />
        </>
      );
    case 7:
      return (
        <>
          <CheckboxGroup name="pagesNeeded" legend="Which pages do you need?" options={PAGES} locked={REQUIRED_PAGES} />
          <CheckboxGroup name="mustHaveSections" legend="Must-have sections" options={SECTIONS} />
        </>
      );
    case 8:
      return (
        <>
          <TextField name="headline" label="Headline for your home page" hint="Up to 200 characters." />
          <TextList name="keyPoints" legend="Key points to get across" itemLabel="Key point" max={20} hint="Press Enter or Add to add each one." />
          <TextField name="existingContent" label="Any existing text you'd like us to use" type="textarea" rows={8} hint="Up to 10,000 characters." />
        </>
      );
    case 9:
      return (
        <>
          <fieldset className="choices">
            <legend>Which legal pages do you need?</legend>
            <Checkbox name="needsPrivacyPolicy" label="Privacy policy" />
            <Checkbox name="needsTermsConditions" label="Terms and conditions" />
            <Checkbox name="needsFacebookDisclaimer" label="Facebook disclaimer" />
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
          <RadioGroup name="packageSelected" legend="Which style suits your business best? (required)" options={PACKAGE_STYLES} />
          <SelectField name="hostingPreference" label="Hosting" options={HOSTING_PREFERENCES} />
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
          label="Anything else we should know?"
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
      <TextField name="businessName" label="Trading name" required autoComplete="organization" />
      <TextField name="businessLegalName" label="Legal name (if different)" />
      <TextField name="abnAcn" label="ABN or ACN (optional)" />
      <TextField name="contactEmail" label="Contact e-mail" type="email" required autoComplete="email" />
      <TextField name="contactPhone" label="Contact phone" type="tel" required autoComplete="tel" />
      <TextField name="physicalAddress" label="Address (optional)" autoComplete="street-address" />
      <TextField name="serviceArea" label="Service area" hint="Where do you work? e.g. Lismore and the Northern Rivers" />
      <TextField name="businessHours" label="Business hours" />
      <RadioGroup name="hasDomain" legend="Do you already have a domain name?" options={YES_NO} />
      <When show={hasDomain === "yes"}>
        <TextField name="domainUrl" label="Your domain (if yes)" type="url" placeholder="example.com.au" />
      </When>
      <SelectWithOther name="businessType" otherName="businessTypeOther" label="Business type" otherLabel="Your business type" options={BUSINESS_TYPES} required />
      <TextField name="businessDescription" label="Describe your business" type="textarea" required hint="10 to 2,000 characters." />
    </>
  );
}

function GoalsOffer() {
  return (
    <>
      <SelectWithOther
        name="websitePurpose"
        otherName="websitePurposeOther"
        label="What is your website mainly for?"
        otherLabel="What else"
        options={WEBSITE_PURPOSES}
        required
      />
      <TextField name="mainCta" label="What should visitors do? (main call to action)" required hint="e.g. Call for a free quote" />
      <TextField name="specificOffer" label="A specific offer (optional)" hint="e.g. 10% off your first service" />
      <RadioGroup name="needsContactForm" legend="Do you want a contact form?" options={YES_NO} />
    </>
  );
}

function Services() {
  const names = useLiveValue("servicesList[1].name");
  return (
    <>
      <RowsEditor
        name="servicesList"
        legend="Your services"
        itemLabel="Service"
        keyField="name"
        max={50}
        hint="Each service needs a name. Tick 'Show a price' to put its price on your site."
        fields={[
          { key: "name", label: "Service name" },
          { key: "description", label: "Short description", type: "textarea" },
          { key: "prominent", label: "Feature this service prominently", type: "checkbox" },
          { key: "showPricing", label: "Show a price for this service", type: "checkbox" },
          { key: "price", label: "Price", hint: "Shown only when 'Show a price for this service' is ticked. e.g. From $99", shownWhen: "showPricing" },
        ]}
      />
      <SelectField name="pricingApproach" label="How do you handle pricing?" options={PRICING_APPROACHES} />
      <When show={countOf(names) > 0}>
        <RadioGroup name="servicesGrouping" legend="How should services be shown? (if more than one service)" options={SERVICES_GROUPINGS} />
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
        <TextField name="logoUrl" label="Or a link to your logo" type="url" hint="Used only when no file is uploaded." />
      </fieldset>
      <TextList name="brandColors" legend="Brand colours" itemLabel="Colour" max={10} hint="e.g. Navy blue, or #1a3c6e" />
      <SelectWithOther name="stylePreference" otherName="stylePreferenceOther" label="Style you like" otherLabel="Describe the style" options={STYLES} />
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
            legend="Photo details"
            itemLabel="Photo"
            keyField="id"
            max={extras.photos.length}
            fields={[
              { key: "altText", label: "Describe the photo (alt text, required)" },
              { key: "placement", label: "Where should it go?", type: "select", options: PHOTO_PLACEMENTS },
              { key: "crop", label: "Crop", type: "select", options: PHOTO_CROPS },
              { key: "priority", label: "Priority", type: "select", options: PHOTO_PRIORITIES },
            ]}
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
      <TextField name="primaryDomain" label="Primary domain" required hint="The domain you have, or would like (e.g. smithplumbing.com.au)." />
      <TextList name="targetKeywords" legend="What would customers search for to find you?" itemLabel="Keyword" max={20} />
      <TextList name="competitorUrls" legend="Competitors' websites (up to 3)" itemLabel="Competitor URL" max={3} type="url" />
      <fieldset>
        <legend>Social media</legend>
        <TextField name="socialLinks.facebook" label="Facebook" type="url" />
        <TextField name="socialLinks.instagram" label="Instagram" type="url" />
        <TextField name="socialLinks.youtube" label="YouTube" type="url" />
        <TextField name="socialLinks.linkedin" label="LinkedIn" type="url" />
      </fieldset>
      <TextField name="googleBusinessUrl" label="Google Business Profile link" type="url" />
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
      <TextField name="bookingSystem" label="Booking system you use (if any)" />
      <TextField name="googleAnalyticsId" label="Google Analytics ID (if any)" hint="e.g. G-XXXXXXX" />
      <RowsEditor
        name="staffBios"
        legend="Staff bios"
        itemLabel="Staff member"
        keyField="name"
        max={50}
        hint="Each staff member needs a name; role, bio and photo are optional."
        fields={[
          { key: "name", label: "Name" },
          { key: "role", label: "Role" },
          { key: "bio", label: "Short bio", type: "textarea" },
          { key: "headshotUrl", label: "Link to a headshot photo", type: "url" },
        ]}
      />
      <TextList name="videoUrls" legend="Videos to include" itemLabel="Video URL" max={20} type="url" />
      <SelectWithOther
        name="websiteStylePreference"
        otherName="websiteStylePreferenceOther"
        label="Website style"
        otherLabel="Describe the style"
        options={STYLES}
      />
      <TextField name="preferredLaunchDate" label="Preferred launch date" type="date" />
    </>
  );
}

function PrivacyConsent() {
  return (
    <>
      <p>
        We may use AI tools to help draft your website. You decide what happens with your information. Read our{" "}
        <a href="/privacy" target="_blank" rel="noopener">
          Privacy Policy
        </a>
        .
      </p>
      <fieldset className="choices">
        <legend>Required consents</legend>
        <Checkbox name="allowAIDataProcessing" required label="I allow my business information to be processed by AI to help build my website." />
        <Checkbox name="allowDataForWebsiteGeneration" required label="I allow my information to be used to generate my website." />
        <Checkbox name="understandObfuscation" required label="I understand that protected details are generalised and private details are never sent to AI." />
        <Checkbox name="understandDataUsage" required label="I understand how my data is used, as explained in the Privacy Policy." />
      </fieldset>
      <Checkbox name="allowShowcase" label="You may show my finished website in your portfolio (optional)." />
      <RadioGroup name="dataRetentionPeriod" legend="How long may we keep your data?" options={RETENTION_PERIODS} />
    </>
  );
}

function PrivacyPreview({ preview }: { preview: StepExtras["preview"] }) {
  if (!preview) return null;
  const entries = Object.entries(preview.data);
  return (
    <>
      <p>This is exactly what would be sent to AI. Your contact details, staff, testimonials, review links, tracking ids and notes are never sent.</p>
      {preview.missing ? (
        <p className="flash flash-error" role="alert">
          {preview.missing}
        </p>
      ) : null}
      {entries.length ? (
        <dl className="preview card">
          {entries.map(([key, value]) => (
            <div key={key}>
              <dt>{key.replace(/_/g, " ")}</dt>
              <dd>{typeof value === "string" ? value : JSON.stringify(value)}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p>Nothing yet.</p>
      )}
    </>
  );
}
