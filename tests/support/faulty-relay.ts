import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll } from "vitest";
import { APP_URL } from "./browser";

/**
 * A faulty link between the browser and the app, as a satellite link loses answers (issue 34). Unlike
 * playwright's `route.fetch()` + `route.abort()`, which hands the lost answer's cookies to the browser,
 * an answer lost here never reaches the browser at all. Every request is forwarded as it came (the Host
 * header too, so the app sees one site); the next request that a fault matches meets it:
 *
 * - `drop`: the server gets the request and answers it, then the link drops (every socket closed) and stays
 *   down for `downMs` (3 s), so Chromium does not silently send it again on a new connection;
 * - `cut`: the answer's head and the first half of its body arrive, then the link drops the same way;
 * - `stall`: the answer is held for `stallMs` (30 s), then delivered whole;
 * - `503`: a gateway's "Service Unavailable" page, and the app never sees the request.
 */
export type Fault = "drop" | "cut" | "stall" | "503";

export type Relay = {
  /** Where the browser goes instead of APP_URL. */
  url: string;
  /**
   * The next request to `path` (Remix's data request `path.data` included) with `method` meets `fault`.
   * Returns how many matching requests reached the relay since (the faulty one included).
   */
  fail(fault: Fault, path: string, options?: { method?: string; stallMs?: number }): { reached: number };
  /** Resolves once the link is up again after a drop (at once when it is up). */
  linkUp(): Promise<void>;
  close(): Promise<void>;
};

const DOWN_MS = 3_000;

export async function startRelay(target = APP_URL): Promise<Relay> {
  const app = new URL(target);
  const sockets = new Set<Socket>();
  let downUntil = 0;
  const faults: {
    fault: Fault;
    path: string;
    method: string;
    stallMs: number;
    seen: { reached: number };
    met: boolean;
  }[] = [];

  const dropLink = () => {
    downUntil = Date.now() + DOWN_MS;
    for (const socket of sockets) socket.destroy();
  };

  /** Forwards the request; resolves with the app's answer read whole. */
  const forward = (req: IncomingMessage) =>
    new Promise<{ head: IncomingMessage; body: Buffer }>((resolve, reject) => {
      const upstream = request(
        { host: app.hostname, port: app.port, method: req.method, path: req.url, headers: req.headers },
        (head) => {
          const chunks: Buffer[] = [];
          head.on("data", (chunk: Buffer) => chunks.push(chunk));
          head.on("end", () => resolve({ head, body: Buffer.concat(chunks) }));
          head.on("error", reject);
        },
      );
      upstream.on("error", reject);
      req.pipe(upstream);
    });

  const deliver = (res: ServerResponse, head: IncomingMessage, body: Buffer) => {
    res.writeHead(head.statusCode ?? 502, head.rawHeaders);
    res.end(body);
  };

  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://relay").pathname;
    const matching = faults.filter((f) => f.method === req.method && (path === f.path || path === `${f.path}.data`));
    matching.forEach((f) => f.seen.reached++);
    const match = matching.find((f) => !f.met);
    if (match) match.met = true;
    try {
      if (match?.fault === "503") {
        req.resume();
        res.writeHead(503, { "Content-Type": "text/html" });
        return res.end("<h1>503 Service Unavailable</h1>");
      }
      const { head, body } = await forward(req);
      if (match?.fault === "drop") return dropLink();
      if (match?.fault === "cut") {
        const headers = { ...head.headers };
        delete headers["content-length"];
        res.writeHead(head.statusCode ?? 200, headers);
        res.write(body.subarray(0, Math.floor(body.length / 2)));
        // The half arrives (and the browser hands the answer on), then the link drops.
        return setTimeout(dropLink, 300);
      }
      if (match?.fault === "stall") await new Promise((resolve) => setTimeout(resolve, match.stallMs));
      deliver(res, head, body);
    } catch {
      res.destroy();
    }
  });
  server.on("connection", (socket: Socket) => {
    if (Date.now() < downUntil) return socket.destroy();
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    fail(fault, path, { method = "POST", stallMs = 30_000 } = {}) {
      const seen = { reached: 0 };
      faults.push({ fault, path, method, stallMs, seen, met: false });
      return seen;
    },
    linkUp() {
      return new Promise((resolve) => setTimeout(resolve, Math.max(0, downUntil - Date.now())));
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A relay of its own for each page of a test file (a drop closes every socket of its relay), all closed after the file. */
export function useRelays() {
  const open: Relay[] = [];
  afterAll(() => Promise.all(open.map((relay) => relay.close())));
  return async () => {
    const relay = await startRelay();
    open.push(relay);
    return relay;
  };
}
