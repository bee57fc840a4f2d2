import { useEffect, useState } from "react";

export type FlashView = { kind: "success" | "error" | "info"; title: string; description?: string };

const TOAST_MS = 4000;
const MAX_VISIBLE = 3;

/**
 * The spec's toasts. Rendered into the HTML (so they show without JavaScript);
 * with JavaScript each one fades after 4000 ms, and at most 3 show at once.
 */
export function Flashes({ flashes }: { flashes: FlashView[] }) {
  const [visible, setVisible] = useState(() => flashes.slice(-MAX_VISIBLE));
  useEffect(() => setVisible(flashes.slice(-MAX_VISIBLE)), [flashes]);
  useEffect(() => {
    if (visible.length === 0) return;
    const timer = setTimeout(() => setVisible((v) => v.slice(1)), TOAST_MS);
    return () => clearTimeout(timer);
  }, [visible]);

  if (visible.length === 0) return null;
  return (
    <div className="flashes" role="status" aria-live="polite">
      {visible.map((f, i) => (
        <div key={`${f.title}-${i}`} className={`flash flash-${f.kind}`}>
          <strong>{f.title}</strong>
          {f.description ? <span> {f.description}</span> : null}
        </div>
      ))}
    </div>
  );
}
