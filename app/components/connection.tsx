import { useEffect, useRef, useState, useSyncExternalStore } from "react";

/**
 * What happens when the link drops (ARCHITECTURE.md rule 1), in one place.
 *
 * Remix loads every page's data and sends every form through `fetch`. On a
 * satellite link a request that fails half-way is ordinary, and Remix would
 * answer it with the error screen, unmounting the form and what was typed.
 * `keepRequestsThroughDrops` (called once by entry.client) wraps `fetch` for
 * Remix's own requests: a request that cannot reach the server (offline, reset,
 * a proxy's 502/503/504 page, an answer whose body stops half-way: Remix gets an
 * answer only once its body has arrived whole) is not failed but held, the page stays as it is,
 * and it is sent again once when the browser is back online, on "Try again",
 * or after a back-off while the browser believes it is online (and then as
 * soon as a tiny probe of the server is answered: `waitForRetry`). Remix still
 * sees one request in flight, so pending states stay on and nothing is sent
 * twice at once; a held request is dropped when Remix aborts it (the person
 * went elsewhere). While a press of a form is on its way (sent, slow or held,
 * and when answered by a redirect until the page it leads to is drawn: `afterNavigation`)
 * the form cannot be changed and says so when someone tries (`lockForm`), so a
 * resend carries exactly what was pressed and nothing typed after the press is
 * thrown away by its answer; a form whose own code keeps typing across some
 * presses names their buttons' values in `data-keeps-typing` (the intake's Add,
 * Remove and Enter). A resend reads the form again (the form hears
 * `RESEND_EVENT` first: the intake marks its save as newer). Effects are keyed
 * on the server (form keys, ordered saves), so a resend after a lost answer
 * changes nothing twice.
 *
 * `<SendStatus />` beside a form's button and `<ConnectionNotice />` in the
 * page shell say so in a live region.
 */

export const CONNECTION_MESSAGES = {
  failed:
    "We couldn't reach the server. What you typed is kept on this device and will be sent when the connection is back.",
  failedPage:
    "We couldn't reach the server. You're still on this page; the next one opens when the connection is back.",
  retrying: "Sending again...",
  slow: "Still sending. The connection is slow; please keep this page open.",
  locked: "This form can't be changed while it is being sent. You can change it again once the server has answered.",
} as const;

/** Dispatched on a form just before its held post is sent again with what it now holds. */
export const RESEND_EVENT = "connection:resend";

/** A request still on its way is called slow after this long. */
export const SLOW_MS = 8_000;
/** Back-off between resends while the browser says it is online (reset, timeout, proxy errors, a refused save). */
const BACKOFF_MS = [5_000, 15_000, 30_000, 60_000];
/** The wait before the next try after `attempt` failed ones (then every minute): held posts, uploads, autosaves. */
export const backoff = (attempt: number) => BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];

type Delivery = {
  id: number;
  path: string;
  post: boolean;
  /** The form whose press this is, when known: a page may have two forms posting to one path (feedback and Continue). */
  form?: HTMLFormElement;
  state: "sending" | "slow" | "failed" | "retrying";
  /** Its form cannot be changed meanwhile; `tried` once someone tried to (the page then says why). */
  locked?: { tried: boolean };
};

let deliveries: Delivery[] = [];
const listeners = new Set<() => void>();
const retryWaiters = new Set<() => void>();
let nextId = 1;

function update(id: number, change: Partial<Delivery> | null) {
  deliveries = change
    ? deliveries.map((d) => (d.id === id ? { ...d, ...change } : d))
    : deliveries.filter((d) => d.id !== id);
  listeners.forEach((l) => l());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Every request held or on its way (React reads it through useDeliveries). */
export function useDeliveries(): Delivery[] {
  return useSyncExternalStore(
    subscribe,
    () => deliveries,
    () => EMPTY,
  );
}
const EMPTY: Delivery[] = [];

/** "Try again": every held request is sent again now. */
export function retryNow() {
  const waiting = [...retryWaiters];
  retryWaiters.clear();
  waiting.forEach((go) => go());
}

/** The page path a Remix data request is for (`/contact.data` -> `/contact`, `/_root.data` -> `/`). */
export function pagePath(url: URL): string {
  if (url.pathname === "/_root.data") return "/";
  return url.pathname.replace(/\.data$/, "");
}

const isRemixRequest = (url: URL) =>
  url.origin === window.location.origin && (url.pathname.endsWith(".data") || url.pathname === "/__manifest");

/** A gateway's error page (not an answer of ours, which Remix encodes as text/x-script). */
const isGatewayFailure = (res: Response) =>
  [502, 503, 504].includes(res.status) && !res.headers.get("Content-Type")?.includes("text/x-script");

/** While a request is held and the browser says it is online, the server is asked this often whether it answers. */
export const PROBE_MS = 2_000;
/** The smallest answer the server gives (it says only that the process answers). */
const PROBE_URL = "/healthz";

/** Whether the server answers now (a full-page post that would otherwise meet the browser's own error page asks first). */
export async function serverAnswers(): Promise<boolean> {
  if (!navigator.onLine) return false;
  try {
    return (await fetch(PROBE_URL, { cache: "no-store" })).ok;
  } catch {
    return false;
  }
}

/**
 * Resolves when the held request should go again: the browser is back online, "Try again" was pressed, the
 * back-off has passed, or (online: a link that dropped without the browser noticing) the server answers a
 * tiny probe, so the resend goes as soon as the link is back rather than on the back-off.
 */
function waitForRetry(attempt: number, signal: AbortSignal | null | undefined, send: typeof fetch) {
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      cleanup();
      resolve();
    };
    const aborted = () => {
      cleanup();
      reject(signal?.reason ?? new DOMException("Aborted", "AbortError"));
    };
    // Offline: wait for the browser to come back. Online (a reset or a proxy error): back off.
    const timer = navigator.onLine ? setTimeout(done, backoff(attempt)) : null;
    const probe = navigator.onLine
      ? setInterval(() => {
          send(PROBE_URL, { cache: "no-store" }).then(
            (res) => res.ok && done(),
            () => undefined, // still down
          );
        }, PROBE_MS)
      : null;
    const cleanup = () => {
      if (timer) clearTimeout(timer);
      if (probe) clearInterval(probe);
      window.removeEventListener("online", done);
      signal?.removeEventListener("abort", aborted);
      retryWaiters.delete(done);
    };
    window.addEventListener("online", done);
    signal?.addEventListener("abort", aborted);
    retryWaiters.add(done);
  });
}

type Source = { form: HTMLFormElement; submitter: HTMLElement | null; at: number };
/** The form of the latest submit event (read when its post leaves, to know which form it came from). */
let submitted: Source | null = null;
/** A post leaves within this long of its form's submit event (Remix sends it at once); anything later is not it. */
const SUBMIT_TO_SEND_MS = 1_000;

/**
 * The form a post's body was read from, when it is one on the page (a fetcher's own values are not):
 * the form of the submit event just before, still on the page, whose action is the post's path and whose
 * pressed button the body carries. Matched by the form element, not by its entries: a form may change its
 * own hidden fields between the submit and the request (the intake's save stamp).
 */
function sourceOf(url: URL, post: boolean, body: unknown): Source | null {
  const source = submitted;
  submitted = null;
  if (!source?.form.isConnected || performance.now() - source.at > SUBMIT_TO_SEND_MS) return null;
  if (new URL(source.form.action, window.location.href).pathname !== pagePath(url)) return null;
  // A form with method get (a filter) is sent as the page load of its address, with no body.
  if (!post) return source.form.method === "get" ? source : null;
  if (!(body instanceof FormData || body instanceof URLSearchParams)) return null;
  const button = source.submitter as HTMLButtonElement | null;
  if (button?.name && !body.getAll(button.name).includes(button.value)) return null;
  return source;
}

/** Choices, files, sliders and lists have no readOnly and are disabled; every other box takes readOnly. */
const DISABLED_TYPES = new Set(["checkbox", "radio", "file", "range", "color"]);
const UNTOUCHED_TYPES = new Set(["hidden", "submit", "button", "reset", "image"]);

/** Whether this press of its form leaves the form to be locked (see the top of this file). */
function locks(source: Source) {
  const value = (source.submitter as HTMLButtonElement | null)?.value ?? "";
  const kept = source.form.dataset.keepsTyping?.split(" ").filter(Boolean) ?? [];
  return !kept.some((prefix) => value.startsWith(prefix));
}

/**
 * Makes a form's controls unchangeable until the returned function is called, which puts each back as it
 * was; `onTry` hears a key pressed or a click in the form meanwhile.
 */
function lockForm(form: HTMLFormElement, onTry: () => void): () => void {
  const changed: (() => void)[] = [];
  for (const el of form.elements) {
    const input = el instanceof HTMLInputElement && !UNTOUCHED_TYPES.has(el.type);
    if (el instanceof HTMLTextAreaElement || (input && !DISABLED_TYPES.has(el.type))) {
      if (el.readOnly) continue;
      el.readOnly = true;
      changed.push(() => (el.readOnly = false));
    } else if (input || el instanceof HTMLSelectElement) {
      if (el.disabled) continue;
      el.disabled = true;
      changed.push(() => (el.disabled = false));
    }
  }
  const tried = (event: Event) => {
    const el = event.target as HTMLElement;
    if (el instanceof HTMLButtonElement || (event instanceof KeyboardEvent && event.key === "Tab")) return;
    onTry();
  };
  form.addEventListener("keydown", tried);
  form.addEventListener("pointerdown", tried);
  form.setAttribute("aria-busy", "true");
  return () => {
    changed.forEach((undo) => undo());
    form.removeEventListener("keydown", tried);
    form.removeEventListener("pointerdown", tried);
    form.removeAttribute("aria-busy");
  };
}

/** An answer read to its end (a body that stops half-way throws, as a dropped link does), for Remix to decode. */
async function whole(res: Response): Promise<Response> {
  const body = await res.arrayBuffer();
  const init = { status: res.status, statusText: res.statusText, headers: res.headers };
  return new Response([101, 204, 205, 304].includes(res.status) ? null : body, init);
}

/** The body of a resend: what the form holds now (files as chosen), in the shape of the first send. */
function freshBody(source: Source, first: FormData | URLSearchParams): FormData | URLSearchParams {
  source.form.dispatchEvent(new Event(RESEND_EVENT));
  const data = new FormData(source.form);
  const button = source.submitter as HTMLButtonElement | null;
  if (button?.name) data.append(button.name, button.value);
  if (first instanceof FormData) return data;
  return new URLSearchParams([...data].map(([k, v]) => [k, typeof v === "string" ? v : v.name]));
}

/** How Remix's single fetch answers a post whose action redirected (the redirect is in the body). */
const SINGLE_FETCH_REDIRECT_STATUS = 202;

/**
 * Calls `done` once the page an answer leads to has been drawn: the router's navigation (under way, or started
 * by a redirect once its answer is read) has ended, or the page is shown again from the back-forward cache
 * after a redirect to another site. Until then the pressed form stays locked: its page is still on its way,
 * and when it comes the form is drawn afresh (the next step, this page emptied after a send, a filter's fields
 * showing what was applied), so what was typed there would go.
 */
function afterNavigation(done: () => void) {
  const router = window.__remixRouter;
  if (!router) return done();
  let navigating = router.state.navigation.state !== "idle";
  // (A page that is already shown hears "pageshow" again only when it comes back from that cache.)
  const finish = () => {
    stop();
    window.removeEventListener("pageshow", finish);
    done();
  };
  const stop = router.subscribe(({ navigation }) => {
    if (navigation.state !== "idle") navigating = true;
    else if (navigating) finish();
  });
  window.addEventListener("pageshow", finish);
}

/** Wraps window.fetch for Remix's own requests (entry.client calls it once, before hydration). */
export function keepRequestsThroughDrops() {
  const send = window.fetch.bind(window);
  window.addEventListener(
    "submit",
    (event) => {
      if (event.target instanceof HTMLFormElement)
        submitted = { form: event.target, submitter: event.submitter, at: performance.now() };
    },
    true,
  );
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
    const signal = init?.signal;
    // Navigations, submissions and fetchers carry a signal; the background route discovery does not.
    if (!isRemixRequest(url) || input instanceof Request || !signal) return send(input, init);
    // The request leaves first; the page's own bookkeeping (the status, the form's lock) follows while it travels.
    let first: Promise<Response> | null = send(input, init);
    const id = nextId++;
    const post = (init?.method ?? "GET").toUpperCase() !== "GET";
    let source: Source | null = null;
    let unlock: (() => void) | null = null;
    try {
      source = post || submitted?.form.method === "get" ? sourceOf(url, post, init?.body) : null;
      const locked = source && locks(source) ? { tried: false } : undefined;
      deliveries = [...deliveries, { id, path: pagePath(url), post, form: source?.form, state: "sending", locked }];
      listeners.forEach((l) => l());
      if (locked) unlock = lockForm(source!.form, () => update(id, { locked: { tried: true } }));
    } catch (error) {
      // The request has left (the form is not locked yet): a fault in the page's own bookkeeping lets it go on,
      // untracked, not lost.
      update(id, null);
      reportError(error);
      return first;
    }
    const slow = setTimeout(() => update(id, { state: "slow" }), SLOW_MS);
    let answeredByRedirect = false;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const sending = first ?? send(input, init);
          first = null;
          const res = await sending;
          if (!isGatewayFailure(res)) {
            answeredByRedirect = post && res.status === SINGLE_FETCH_REDIRECT_STATUS;
            return await whole(res);
          }
        } catch (error) {
          if (signal?.aborted) throw error;
        }
        update(id, { state: "failed" });
        await waitForRetry(attempt, signal, send);
        update(id, { state: "retrying" });
        // Sent again as the form holds it now (read while unlocked: a disabled control is not in a form's data).
        if (post && source?.form.isConnected) {
          unlock?.();
          init = { ...init, body: freshBody(source, init!.body as FormData) };
          if (unlock) unlock = lockForm(source.form, () => update(id, { locked: { tried: true } }));
        }
      }
    } finally {
      clearTimeout(slow);
      const done = () => {
        unlock?.();
        update(id, null);
      };
      // The answer is read; the page it leads to is drawn next (a filter's, or a redirect's).
      if (unlock && (answeredByRedirect || !post)) afterNavigation(done);
      else done();
    }
  };
  // Leaving with a post not yet delivered asks first (the browser words the question).
  window.addEventListener("beforeunload", (event) => {
    if (deliveries.some((d) => d.post && d.state !== "sending")) event.preventDefault();
  });
}

/** The message for the worst of some deliveries, or null when all is well. */
function messageFor(list: Delivery[]) {
  if (list.some((d) => d.state === "failed")) return list.some((d) => d.post) ? "failed" : "failedPage";
  if (list.some((d) => d.state === "retrying")) return "retrying";
  if (list.some((d) => d.state === "slow")) return "slow";
  return null;
}

function Status({ list }: { list: Delivery[] }) {
  const key = messageFor(list);
  // Said once the person tried to change the form, or when the post is no longer quick.
  const locked = list.some((d) => d.locked && (d.locked.tried || d.state !== "sending"));
  return (
    <div className="send-status" aria-live="polite">
      {locked ? <p className="flash flash-info">{CONNECTION_MESSAGES.locked}</p> : null}
      {key ? (
        <p className={`flash ${key.startsWith("failed") ? "flash-error" : "flash-info"}`}>
          {CONNECTION_MESSAGES[key]}{" "}
          {key.startsWith("failed") ? (
            <button type="button" className="button" onClick={retryNow}>
              Try again
            </button>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Whether a post is the one a SendStatus (at `status`, in a form posting to `path`) speaks for: its own form's
 * press, or, when the press's form is not known (an autosave, a fetcher), any post to the same path.
 */
function isOwnPost(d: Delivery, status: HTMLElement | null, path: string | null) {
  if (d.path !== path) return false;
  return !d.form || !d.form.isConnected || d.form === status?.closest("form");
}

/** The path the form a status element sits in posts to. */
function formPathOf(el: HTMLElement | null) {
  const form = el?.closest("form");
  return form ? new URL(form.action, window.location.href).pathname : null;
}

/**
 * Beside a form's buttons: what is happening to this form's posts (and its
 * autosaves, which post to the same path), in a live region.
 */
export function SendStatus() {
  const ref = useRef<HTMLDivElement>(null);
  const [path, setPath] = useState<string | null>(null);
  useEffect(() => setPath(formPathOf(ref.current)), []);
  const mine = useDeliveries().filter((d) => d.post && isOwnPost(d, ref.current, path));
  return (
    <div ref={ref} data-send-status="">
      <Status list={mine} />
    </div>
  );
}

/**
 * In the page shell: page loads held by a dropped link, and posts of a form
 * that has no SendStatus of its own.
 */
export function ConnectionNotice() {
  const list = useDeliveries();
  const shown = list.filter((d) => {
    if (!d.post) return true;
    const statuses = document.querySelectorAll<HTMLElement>("[data-send-status]");
    return ![...statuses].some((s) => isOwnPost(d, s, formPathOf(s)));
  });
  return (
    <div className="wrap connection-notice">
      <Status list={shown} />
    </div>
  );
}
