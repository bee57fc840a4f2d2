import { Form } from "@remix-run/react";

/**
 * 'Download my data': posts to an export route, which answers with a JSON file
 * the browser saves. A full-page form post (reloadDocument), so the download
 * works the same with JavaScript on or off.
 */
export function DataExportButton({ action, orderLabel }: { action: string; orderLabel?: string }) {
  return (
    <Form method="post" action={action} reloadDocument className="data-export">
      <button
        type="submit"
        className="button"
        aria-label={orderLabel ? `Download my data (JSON) for order ${orderLabel}` : undefined}
      >
        Download my data (JSON)
      </button>
    </Form>
  );
}
