import { useEffect, useState } from "react";
import { useHydrated } from "../hooks";

export const COPY_RESET_MS = 2000;

/**
 * Text to copy: a read-only text area anyone can select (scripts off), and,
 * once scripts run, a Copy button that confirms 'Copied!' for 2 s.
 */
export function CopyableText({
  id,
  label,
  text,
  rows = 16,
}: {
  id: string;
  label: string;
  text: string;
  rows?: number;
}) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_RESET_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} readOnly rows={rows} value={text} className="mono" onFocus={(e) => e.currentTarget.select()} />
      {hydrated ? (
        <div>
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              void navigator.clipboard?.writeText(text).then(() => setCopied(true));
            }}
          >
            {copied ? "Copied!" : "Copy"}
          </button>
          <span className="visually-hidden" aria-live="polite">
            {copied ? "Copied!" : ""}
          </span>
        </div>
      ) : (
        <p className="hint">Select the text above and copy it.</p>
      )}
    </div>
  );
}
