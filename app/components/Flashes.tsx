import { useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "./hooks";
import { LiveRegion } from "./LiveRegion";

export type FlashView = { kind: "success" | "error" | "info"; title: string; description?: string };

const MAX_VISIBLE = 3;

/**
 * The spec's toasts, rendered into the HTML so they show without JavaScript. A message stays
 * until the person dismisses it or moves on to another page (WCAG 2.2.1: no time limit to read
 * it, so the spec's 4000 ms fade is not used); at most 3 show at once. The live region is in
 * the page from the start, so a message that arrives after a client-side post is announced.
 */
export function Flashes({ flashes }: { flashes: FlashView[] }) {
  const hydrated = useHydrated();
  const { pathname } = useLocation();
  const [visible, setVisible] = useState(() => flashes.slice(-MAX_VISIBLE));
  const shownOn = useRef(pathname);
  useEffect(() => {
    // New messages replace the old; a reload of the same page's data (after an in-place post)
    // that brings none keeps what is shown; another page starts clear.
    if (flashes.length > 0) setVisible(flashes.slice(-MAX_VISIBLE));
    else if (shownOn.current !== pathname) setVisible([]);
    shownOn.current = pathname;
  }, [flashes, pathname]);

  return (
    <LiveRegion className="flashes">
      {visible.map((f, i) => (
        <div key={`${f.title}-${i}`} className={`flash flash-${f.kind}`}>
          <p>
            <strong>{f.title}</strong>
            {f.description ? <span> {f.description}</span> : null}
          </p>
          {hydrated ? (
            <button
              type="button"
              className="link-button flash-dismiss"
              onClick={() => setVisible((v) => v.filter((_, j) => j !== i))}
            >
              Dismiss
            </button>
          ) : null}
        </div>
      ))}
    </LiveRegion>
  );
}
