import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll } from "vitest";
import { APP_URL } from "./browser";

/**
 * A faulty link between the browser and the app, as a satellite link loses answers. Unlike
 * playwright's `route.fetch()` + `route.abort()`, which hands the lost answer's cookies to the browser,
 * an answer lost here never reaches the browser at all. Every request is forwarded as it came (the Host
 * header too, so the app sees one site); the next request that a fault matches meets it:
 *
 * - `drop`: the server gets the request and answers it, then the link drops (every socket closed) and stays
 *   down until `restore()`: a new connection is closed as it opens, so Chromium's silent resend of a post on a
 *   new connection fails too and the page sees the drop;
 * - `cut`: the answer's head and the first half of its body arrive, then the connection ends (the body is
 *   left incomplete) and the link is down the same way;
 * - `cut-request`: the first half of the request's body reaches the server, then the link drops (as `drop`): an
 *   upload cut off mid-way, whose received part the server keeps;
 * - `stall`: the server gets the request and answers it; the answer is held until `restore()`;
 * - `503`: a gateway's "Service Unavailable" page for this request and every one until `restore()`; the app
 *   sees none of them.
 *
 * Nothing here waits on the clock: the link is bad from the faulty request until the test restores it, so
 * what the page shows meanwhile (and how often it tried) does not depend on how loaded the machine is.
 */
export type Fault = "drop" | "cut" | "cut-request" | "stall" | "503";

export type Relay = {
  /** Where the browser goes instead of APP_URL. */
  url: string;
  /**
   * The next request to `path` (Remix's data request `path.data` included) with `method` meets `fault`.
   * `reached` counts the matching requests sent on to the app since (the faulty one included; the app may
   * still be acting on it).
   */
  fail(fault: Fault, path: string, options?: { method?: string }): { reached: number };
  /**
   * The link is good again: connections open, held answers are delivered, the gateway answers no more 503s,
   * and a fault no request has met yet is dropped (a test waits for `reached` first when it needs the fault met);
   * the answer of a faulty request the app is still acting on goes through when it comes.
   */
  restore(): void;
  close(): Promise<void>;
};

export async function startRelay(target = APP_URL): Promise<Relay> {
  const app = new URL(target);
  const sockets = new Set<Socket>();
  /** The link's state until `restore()`: connections closed as they open, or every request a 503. */
  let down: "closed" | "503" | null = null;
  let held: (() => void)[] = [];
  /** `released`: restore() came (the app may still be acting on its request: its answer then goes through). */
  type Faulty = {
    fault: Fault;
    path: string;
    method: string;
    seen: { reached: number };
    met: boolean;
    released: boolean;
  };
  const faults: Faulty[] = [];

  const dropLink = () => {
    down = "closed";
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

  const gatewayError = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    res.writeHead(503, { "Content-Type": "text/html" });
    res.end("<h1>503 Service Unavailable</h1>");
  };

  /** The head and half the body, then the connection ends with the body incomplete (chunked, no last chunk). */
  const cutOff = (res: ServerResponse, head: IncomingMessage, body: Buffer) => {
    const headers = { ...head.headers };
    delete headers["content-length"];
    res.writeHead(head.statusCode ?? 200, headers);
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => {
      res.socket?.end(); // after what was written: the browser reads the half, then the end
      dropLink();
    });
  };

  /** Half the request's body to the app, then the link drops (the app sees the body end early). */
  const cutRequest = (req: IncomingMessage) => {
    const half = Math.floor(Number(req.headers["content-length"] ?? 0) / 2);
    const upstream = request({
      host: app.hostname,
      port: app.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
    });
    upstream.on("error", () => undefined);
    let sent = 0;
    req.on("data", (chunk: Buffer) => {
      if (sent >= half) return;
      const part = chunk.subarray(0, half - sent);
      sent += part.length;
      upstream.write(part, () => {
        if (sent < half) return;
        upstream.destroy();
        dropLink();
      });
    });
  };

  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://relay").pathname;
    const matching = faults.filter((f) => f.method === req.method && (path === f.path || path === `${f.path}.data`));
    const match = matching.find((f) => !f.met);
    if (match) match.met = true;
    if (match?.fault === "503") down = "503";
    if (down === "503") return gatewayError(req, res);
    matching.forEach((f) => f.seen.reached++);
    if (match?.fault === "cut-request") return cutRequest(req);
    try {
      const { head, body } = await forward(req);
      // A test may restore the link while the app is still acting on the faulty request (a busy machine): that
      // answer is then delivered, not held or lost after the link was declared good again.
      if (match && !match.released) {
        if (match.fault === "drop") return dropLink();
        if (match.fault === "cut") return cutOff(res, head, body);
        if (match.fault === "stall") await new Promise<void>((resolve) => held.push(resolve));
      }
      res.writeHead(head.statusCode ?? 502, head.rawHeaders);
      res.end(body);
    } catch {
      res.destroy();
    }
  });
  server.on("connection", (socket: Socket) => {
    if (down === "closed") return socket.destroy();
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const restore = () => {
    down = null;
    for (const f of faults) {
      f.met = true; // a fault not met yet never meets a later request
      f.released = true;
    }
    const waiting = held;
    held = [];
    waiting.forEach((deliver) => deliver());
  };
  return {
    url: `http://127.0.0.1:${port}`,
    fail(fault, path, { method = "POST" } = {}) {
      const seen = { reached: 0 };
      faults.push({ fault, path, method, seen, met: false, released: false });
      return seen;
    },
    restore,
    close() {
      restore();
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
