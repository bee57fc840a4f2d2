import { BUSINESS } from "~/content/site";

/** Phone, e-mail and the social pages (these open in a new tab), as list items. */
export function ContactLinks({ labelled }: { labelled?: boolean }) {
  return (
    <>
      <li>
        {labelled ? "Phone: " : null}
        <a href={BUSINESS.phoneHref}>{BUSINESS.phone}</a>
      </li>
      <li>
        {labelled ? "E-mail: " : null}
        <a href={`mailto:${BUSINESS.email}`}>{BUSINESS.email}</a>
      </li>
      <li>
        <a href={BUSINESS.facebookUrl} target="_blank" rel="noopener noreferrer">
          Facebook<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </li>
      <li>
        <a href={BUSINESS.youtubeUrl} target="_blank" rel="noopener noreferrer">
          YouTube<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </li>
    </>
  );
}
