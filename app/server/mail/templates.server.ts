/**
 * E-mail bodies: every template returns a subject, a plain-text body and an HTML
 * body built from the same lines, so both always say the same thing.
 */
export type MailContent = { subject: string; text: string; html: string };

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

/** A table of label and amount rows (a receipt), its last row the total. */
export type Rows = { rows: [string, string][] };
export type Block = string | { link: string; label: string } | { quote: string } | Rows;

const rowsText = (b: Rows) => b.rows.map(([label, amount]) => `${label}: ${amount}`).join("\n");
const rowsHtml = (b: Rows) =>
  `<table style="border-collapse:collapse;min-width:280px">${b.rows
    .map(([label, amount], i) => {
      const last = i === b.rows.length - 1;
      const cell = `padding:4px 8px 4px 0;${last ? "border-top:1px solid #999;font-weight:bold" : ""}`;
      return `<tr><td style="${cell}">${escapeHtml(label)}</td><td style="${cell};text-align:right;white-space:nowrap">${escapeHtml(amount)}</td></tr>`;
    })
    .join("")}</table>`;

/** Lays out paragraphs, links and quotes as text and as simple, inline-styled HTML. */
export function layout(subject: string, blocks: Block[]): MailContent {
  const text = blocks
    .map((b) =>
      typeof b === "string"
        ? b
        : "link" in b
          ? `${b.label}: ${b.link}`
          : "rows" in b
            ? rowsText(b)
            : b.quote.replace(/^/gm, "> "),
    )
    .join("\n\n");
  const html = blocks
    .map((b) => {
      if (typeof b === "string") return `<p>${escapeHtml(b).replace(/\n/g, "<br>")}</p>`;
      if ("rows" in b) return rowsHtml(b);
      if ("link" in b)
        return `<p><a href="${escapeHtml(b.link)}" style="display:inline-block;padding:10px 16px;background:#0b5d3b;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(b.label)}</a></p>`;
      return `<blockquote style="border-left:3px solid #ccc;margin:0;padding-left:12px">${escapeHtml(b.quote).replace(/\n/g, "<br>")}</blockquote>`;
    })
    .join("\n");
  return {
    subject,
    text: `${text}\n\n-- \n24-Hour Website, Northern Rivers NSW\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1a1a;max-width:560px">${html}<p style="color:#666;font-size:13px">24-Hour Website, Northern Rivers NSW</p></body></html>`,
  };
}
