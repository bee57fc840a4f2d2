import { createCookieSessionStorage } from "@remix-run/node";
import { cookieOptions, readSession } from "./cookies.server";
import { noteCookieRead } from "./private-response.server";

/**
 * Flash messages (the spec's toasts) ride a signed cookie across a redirect and
 * are rendered into the HTML by the root, so they show without JavaScript.
 */
export type FlashKind = "success" | "error" | "info";
export type Flash = { kind: FlashKind; title: string; description?: string };

type FlashData = { messages: Flash[] };

let storage: ReturnType<typeof createCookieSessionStorage<FlashData>> | undefined;
const FLASH_COOKIE = "__flash";

function flashStorage() {
  if (!storage) {
    storage = createCookieSessionStorage<FlashData>({ cookie: cookieOptions(FLASH_COOKIE) });
  }
  return storage;
}

/** The flash cookie's messages; a forged or unreadable cookie is none, never an error. */
const flashSession = (request: Request) => readSession(flashStorage(), request, FLASH_COOKIE);

/**
 * A Set-Cookie header that shows `flash` on the next page rendered. A message already waiting is not added
 * twice: a resend whose first answer's cookie arrived before the rest was cut off is told once.
 */
export async function flashCookie(request: Request, flash: Flash): Promise<string> {
  const session = await flashSession(request);
  const same = (f: Flash) => f.kind === flash.kind && f.title === flash.title && f.description === flash.description;
  const list = ((session.get("messages") ?? []) as Flash[]).filter((f) => !same(f)).slice(-2);
  session.set("messages", [...list, flash]);
  return flashStorage().commitSession(session);
}

/** Reads and clears pending flash messages; returns the header that clears them. */
export async function takeFlashes(request: Request): Promise<{ flashes: Flash[]; headers: HeadersInit | undefined }> {
  noteCookieRead(FLASH_COOKIE, request);
  const cookie = request.headers.get("Cookie");
  if (!cookie?.includes(`${FLASH_COOKIE}=`)) return { flashes: [], headers: undefined };
  const session = await flashSession(request);
  const stored: unknown = session.get("messages");
  const flashes = Array.isArray(stored) ? (stored as Flash[]) : [];
  return { flashes, headers: { "Set-Cookie": await flashStorage().destroySession(session) } };
}

/** redirect() with a flash message attached. */
export async function redirectWithFlash(
  request: Request,
  to: string,
  flash: Flash,
  init?: ResponseInit,
): Promise<Response> {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await flashCookie(request, flash));
  headers.set("Location", to);
  return new Response(null, { ...init, status: init?.status ?? 302, headers });
}
