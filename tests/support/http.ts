import { randomInt } from "node:crypto";
import http from "node:http";
import { Readable } from "node:stream";
import { afterAll } from "vitest";
import { connectDb, disconnectDb } from "~/server/db.server";
import { mongoBase } from "./db";

/** The running test app (scripts/test.sh starts it). */
export const APP_URL = process.env.APP_URL ?? "http://127.0.0.1:3100";

/**
 * A client address of its own on the loopback network (any 127.x.y.z reaches
 * the app on Linux). The app keys rate limits by the connection's address, so
 * a test that posts from its own address never uses up another test's limit.
 */
export function loopbackAddress(): string {
  return `127.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(2, 250)}`;
}

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; text: string };
export type RawRequest = {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** A string, bytes, or a stream (sent chunked, as a client that streams would). */
  body?: string | Uint8Array | Readable;
  from?: string;
};

/**
 * One HTTP request, written by hand: nothing is normalised or refused on the
 * client side, so malformed paths, hosts, cookies and bodies reach the server
 * exactly as sent. A server that stops reading a large body still gets its
 * answer read.
 */
export function rawRequest(req: RawRequest): Promise<RawResponse> {
  const url = new URL(APP_URL);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...req.headers };
    if (typeof req.body === "string" || req.body instanceof Uint8Array)
      headers["Content-Length"] ??= String(Buffer.byteLength(req.body));
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method ?? "GET",
        path: req.path,
        headers,
        localAddress: req.from,
        setHost: !("Host" in headers),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    // The server may answer and close before a large body is all sent: the answer is what counts.
    request.on("error", (error) => reject(error));
    if (req.body instanceof Readable) {
      req.body.on("error", () => {});
      req.body.pipe(request);
    } else request.end(req.body);
  });
}

/** A same-site form post, as a browser sends it. */
export function postForm(
  path: string,
  body: string | URLSearchParams,
  init: { cookie?: string; from?: string; headers?: Record<string, string> } = {},
) {
  return rawRequest({
    method: "POST",
    path,
    from: init.from,
    body: String(body),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "Sec-Fetch-Site": "same-origin",
      Origin: APP_URL,
      ...(init.cookie ? { Cookie: init.cookie } : {}),
      ...init.headers,
    },
  });
}

/** Whether the app still answers its health check. */
export async function appIsUp(): Promise<boolean> {
  try {
    return (await rawRequest({ path: "/healthz" })).status === 200;
  } catch {
    return false;
  }
}

/**
 * The test app's own database (scripts/test.sh names it), for arranging what
 * an earlier visit would have left there: paid orders and their tokens.
 */
export function useRunningAppDatabase() {
  afterAll(() => disconnectDb());
  return async () => {
    process.env.MONGODB_URI = `${mongoBase()}/rapid-website-e2e`;
    await connectDb(process.env.MONGODB_URI);
  };
}

/** An intake session cookie for a paid order, got the way a customer gets one: by opening the e-mailed link. */
export async function intakeCookie(token: string): Promise<string> {
  const res = await rawRequest({ path: `/intake-form?token=${encodeURIComponent(token)}` });
  const cookie = ([] as string[]).concat(res.headers["set-cookie"] ?? []).find((c) => c.startsWith("__intake="));
  if (!cookie) throw new Error(`no intake cookie (status ${res.status})`);
  return cookie.split(";")[0];
}

/** The resident memory of the process listening on the app's port, in bytes, read from /proc; null where it cannot be found. */
export async function appResidentBytes(): Promise<number | null> {
  const { readFile, readdir, readlink } = await import("node:fs/promises");
  const port = Number(new URL(APP_URL).port);
  try {
    const table = await readFile("/proc/net/tcp", "utf8");
    const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
    const row = table.split("\n").find((line) => {
      const cols = line.trim().split(/\s+/);
      return cols[1]?.endsWith(`:${hexPort}`) && cols[3] === "0A"; // LISTEN
    });
    const inode = row?.trim().split(/\s+/)[9];
    if (!inode) return null;
    for (const pid of await readdir("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
      for (const fd of fds) {
        if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")) === `socket:[${inode}]`) {
          const status = await readFile(`/proc/${pid}/status`, "utf8");
          const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
          return Number.isFinite(kb) ? kb * 1024 : null;
        }
      }
    }
  } catch {
    /* not Linux, or /proc not readable */
  }
  return null;
}
