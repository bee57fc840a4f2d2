import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { STAY_SIGNED_IN } from "~/domain/admin/session";
import type { AdminSessionWords } from "./session-data";

export type SessionPhase = "quiet" | "warning" | "ended";

/**
 * The idle admin session's alert dialog (SessionTimeout in AdminTabs decides when): on the warning it takes the
 * focus and offers "Stay signed in", which posts to /admin/session; the answer's new end sets the phase back to
 * quiet, the dialog goes and the focus goes back where it was. Past the end it says the session has ended.
 */
export default function SessionDialog({ phase, words }: { phase: SessionPhase; words: AdminSessionWords }) {
  const fetcher = useFetcher();
  const button = useRef<HTMLButtonElement>(null);
  const before = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (phase === "warning" && document.activeElement !== button.current) {
      before.current = document.activeElement as HTMLElement | null;
      button.current?.focus();
    } else if (phase === "quiet" && before.current) {
      before.current.focus();
      before.current = null;
    }
  }, [phase]);

  if (phase === "quiet") return null;
  return (
    <div
      role="alertdialog"
      aria-labelledby="session-timeout-title"
      aria-describedby="session-timeout-text"
      className="session-timeout"
    >
      <h2 id="session-timeout-title">{words.title}</h2>
      <p id="session-timeout-text">{phase === "warning" ? words.warning : words.ended}</p>
      {phase === "warning" ? (
        <fetcher.Form method="post" action="/admin/session">
          <button
            ref={button}
            type="submit"
            name="intent"
            value={STAY_SIGNED_IN}
            className="button button-primary"
            disabled={fetcher.state !== "idle"}
          >
            {words.stay}
          </button>
        </fetcher.Form>
      ) : null}
    </div>
  );
}
