import { ORDER_FILES_MESSAGES, photoDetailLabels, type OrderPhoto } from "~/domain/admin/order-files";

export type CustomerFiles = {
  logo: { thumb: string; full: string; name: string } | null;
  linkedLogo: string | null;
  photos: (OrderPhoto & { thumb: string; full: string })[];
  archive: string | null;
};

/**
 * The customer's files for the builder: the logo and each photo as a thumbnail with its details, each
 * opening at full size, and all of them in one archive. Plain links: they work without JavaScript.
 */
export function CustomerFilesCard({ files }: { files: CustomerFiles }) {
  const none = !files.logo && !files.linkedLogo && files.photos.length === 0;
  return (
    <section className="card section-tight" aria-labelledby="files-heading">
      <h2 id="files-heading">Customer's Files</h2>
      {none ? <p className="empty">{ORDER_FILES_MESSAGES.none}</p> : null}
      {files.archive ? (
        <p>
          <a href={files.archive} className="button button-small" download>
            Download all files (.zip)
          </a>
        </p>
      ) : null}
      {files.logo ? (
        <figure className="file-tile">
          <img src={files.logo.thumb} alt="The customer's logo" loading="lazy" />
          <figcaption>
            <strong>Logo</strong> <a href={files.logo.full}>Open full size: {files.logo.name}</a>
          </figcaption>
        </figure>
      ) : files.linkedLogo ? (
        <p>
          {ORDER_FILES_MESSAGES.linkedLogo}{" "}
          <a href={files.linkedLogo} target="_blank" rel="noreferrer noopener">
            {files.linkedLogo}
          </a>
        </p>
      ) : null}
      {files.photos.length ? (
        <ul className="file-grid" aria-label="Photos">
          {files.photos.map((p, i) => {
            const labels = photoDetailLabels(p);
            return (
              <li key={p.id} className="file-tile">
                <img src={p.thumb} alt={p.altText || `Photo ${i + 1} (no alt text yet)`} loading="lazy" />
                <dl className="facts">
                  <dt>Alt text</dt>
                  <dd>{p.altText || <em>Not answered</em>}</dd>
                  <dt>Placement</dt>
                  <dd>{labels.placement}</dd>
                  <dt>Crop</dt>
                  <dd>{labels.crop}</dd>
                  <dt>Priority</dt>
                  <dd>{labels.priority}</dd>
                </dl>
                <a href={p.full}>Open full size: {p.name.replace(/^photos\//, "")}</a>
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
