import type { ReactNode } from "react";
import { choiceLabel } from "~/domain/intake/options";
import { toCamel } from "~/domain/intake/data";
import type { PreviewData } from "~/domain/intake/page";
import { GENERALISED_WHY, PROTECTED_FIELDS } from "~/domain/privacy";
import { labelOf as formLabel } from "~/domain/intake/labels";

const SOCIAL: Record<string, string> = {
  facebook: "Facebook",
  instagram: "Instagram",
  youtube: "YouTube",
  linkedin: "LinkedIn",
};

/** The form's own words for a stored field ("Trading name", not "business name"). */
const labelOf = (key: string) => (formLabel(toCamel(key)) ?? key.replace(/_/g, " ")).replace(/\s*\([^)]*\)$/, "");

type Service = { name?: string; description?: string; price?: string; showPricing?: boolean };

function ServicesTable({ services }: { services: Service[] }) {
  return (
    <table className="preview-table">
      <thead>
        <tr>
          <th scope="col">Service</th>
          <th scope="col">Description</th>
          <th scope="col">Price</th>
        </tr>
      </thead>
      <tbody>
        {services.map((s, i) => (
          <tr key={i}>
            <td>{s.name}</td>
            <td>{s.description || "—"}</td>
            <td>{s.showPricing && s.price ? s.price : "Not shown"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One value the way the form showed it: choices by their label, lists as lists, services as a table. */
function Value({ field, value }: { field: string; value: unknown }): ReactNode {
  if (field === "services_list") return <ServicesTable services={value as Service[]} />;
  const choice = choiceLabel(field, value);
  if (choice !== undefined) return choice;
  if (Array.isArray(value)) {
    const items = value
      .filter((v) => v !== null && v !== undefined && v !== "")
      .map((v) => (field === "social_links" ? (SOCIAL[String(v)] ?? String(v)) : String(v)));
    if (!items.length) return "None given";
    return (
      <ul>
        {items.map((item, i) => (
          <li key={i}>{item}</li>
        ))}
      </ul>
    );
  }
  return String(value);
}

/** Step 13: what AI would be given, readable, and why some of it reads differently from what was typed. */
export function PrivacyPreview({ preview }: { preview: PreviewData | null }) {
  if (!preview) return null;
  if (preview.byHand) {
    return (
      <p className="flash flash-success">
        You chose to have your website built by hand, without AI. Nothing about your business is sent to AI, so there is
        nothing to preview. You can change this on step 12.
      </p>
    );
  }
  const entries = Object.entries(preview.data);
  const given = (v: unknown) => !(Array.isArray(v) && v.length === 0);
  const generalised = PROTECTED_FIELDS.filter((f) => f in preview.data && given(preview.data[f]));
  return (
    <>
      <p>
        This is exactly what would be sent to AI to help draft your website. Your contact details, staff, testimonials,
        review links, tracking ids and notes are never sent.
      </p>
      {preview.missing ? (
        <p className="flash flash-error" role="alert">
          {preview.missing}
        </p>
      ) : null}
      {entries.length ? (
        <dl className="preview card">
          {entries.map(([key, value]) => (
            <div key={key}>
              <dt>{labelOf(key)}</dt>
              <dd>
                <Value field={key} value={value} />
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p>Nothing yet.</p>
      )}
      {generalised.length ? (
        <section className="preview-note" aria-labelledby="generalised-heading">
          <h2 id="generalised-heading">What we generalised, and why</h2>
          <p>AI needs a sense of your business, not the details that identify or locate you. So:</p>
          <ul>
            {generalised.map((f) => (
              <li key={f}>
                <strong>{labelOf(f)}</strong>: {GENERALISED_WHY[f]}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
