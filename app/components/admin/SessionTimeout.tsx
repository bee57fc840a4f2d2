import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { ADMIN_SESSION_MESSAGES, SESSION_WARNING_MS, STAY_SIGNED_IN } from "~/domain/admin/session";
import { useAdminSession } from "./session-data";

/**
 * The warning before an idle admin session ends (WCAG 2.2.1): SESSION_WARNING_MS before the end the server gave
 * (read again after every load and post), an alert dialog takes the focus and offers "Stay signed in", which posts
 * to /admin/session; the answer's new end closes it and the focus goes back where it was. Past the end it says
 * the session has ended. Without JavaScript the admin header's sentence says when the session ends.
 */
export function SessionTimeout({ endsAt, serverNow }: { endsAt: number; serverNow: number }) {
  const fetcher = useFetcher();
  const [phase, setPhase] = useState<"quiet" | "warning" | "ended">("quiet");
  const button = useRef<HTMLButtonElement>(null);
  const before = useRef<HTMLElement | null>(null);

  useEffect(() => {
    // The server's clock may differ from this one: count what was left when the server answered.
    const end = Date.now() + (endsAt - serverNow);
    const at = (time: number, next: "warning" | "ended") =>
      setTimeout(() => setPhase(next), Math.max(0, time - Date.now()));
    setPhase("quiet");
    const timers = [at(end - SESSION_WARNING_MS, "warning"), at(end, "ended")];
    return () => timers.forEach(clearTimeout);
  }, [endsAt, serverNow]);

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
      <h2 id="session-timeout-title">{ADMIN_SESSION_MESSAGES.warningTitle}</h2>
      <p id="session-timeout-text">
        {phase === "warning" ? ADMIN_SESSION_MESSAGES.warning : ADMIN_SESSION_MESSAGES.ended}
      </p>
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
            {ADMIN_SESSION_MESSAGES.stay}
          </button>
        </fetcher.Form>
      ) : null}
    </div>
  );
}

/** The admin header's plain sentence: when the session ends if left idle (shown with and without JavaScript). */
export function SessionEnds() {
  const session = useAdminSession();
  return session?.endsAt ? <p className="session-ends">{ADMIN_SESSION_MESSAGES.endsAt(session.endsAt)}</p> : null;
}

/** The notice over a form filled from a post kept when the session ended; it stays until the page is left. */
export function KeptPostNotice() {
  const session = useAdminSession();
  const [kept] = useState(Boolean(session?.kept));
  return kept ? (
    <p className="kept-notice" role="alert">
      {ADMIN_SESSION_MESSAGES.kept}
    </p>
  ) : null;
}
