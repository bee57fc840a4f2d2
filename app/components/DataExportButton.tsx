import { Form } from "@remix-run/react";
import { useState } from "react";
import { serverAnswers } from "./connection";

/** Said beside the button when the server cannot be reached (the download needs the connection). */
export const EXPORT_OFFLINE =
  "Downloading your data needs the connection. We couldn't reach the server; please try again once it is back.";

/**
 * 'Download my data': posts to an export route, which answers with a JSON file
 * the browser saves. A full-page form post (reloadDocument), so the download
 * works the same with JavaScript on or off. With JavaScript, the post is sent
 * only once the server answers a probe: on a dropped link the page stays and
 * says the download needs the connection, instead of the browser's own error
 * page replacing it.
 */
export function DataExportButton({ action, orderLabel }: { action: string; orderLabel?: string }) {
  const [unreachable, setUnreachable] = useState(false);
  return (
    <Form
      method="post"
      action={action}
      reloadDocument
      className="data-export"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        void serverAnswers().then((answers) => {
          setUnreachable(!answers);
          if (answers) form.submit();
        });
      }}
    >
      <button
        type="submit"
        className="button"
        aria-label={orderLabel ? `Download my data (JSON) for order ${orderLabel}` : undefined}
      >
        Download my data (JSON)
      </button>
      {unreachable ? (
        <p role="alert" className="flash flash-error">
          {EXPORT_OFFLINE}
        </p>
      ) : null}
    </Form>
  );
}
