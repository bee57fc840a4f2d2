import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import path from "node:path";

export const BIN = path.resolve(__dirname, "../../.cache/bin");

/** Resolves once something accepts TCP connections on the port. */
export async function waitForPort(port: number, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`port ${port} did not open`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts one of the service binaries for a test that must stop and restart it. */
export function startBinary(name: string, args: string[]): ChildProcess {
  return spawn(path.join(BIN, name), args, { stdio: "ignore" });
}

/**
 * A private FerretDB on `port` storing in `dir` (started again on the same `dir`, it has what it had), for a test
 * that stops and starts its database; resolves once it takes connections.
 */
export async function startFerretDb(port: number, dir: string): Promise<ChildProcess> {
  const ferret = startBinary("ferretdb", ["-listen", `127.0.0.1:${port}`, "-dir", dir]);
  await waitForPort(port);
  return ferret;
}

export async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/**
 * A free-ish port for a private server instance (test files run in parallel): base + TEST_PORT_OFFSET
 * + 0-49, so two checkouts' suites (offsets are multiples of 50) never pick the same one.
 * Bases are below 32768 (the kernel's range for outgoing connections' ports) and each file
 * has its own thousand: the change log's retry 10000, restart 11000, outbox mail 12000 (+1000 HTTP), database restart
 * 14000/15000/19000, two instances 16000, mail down 17000/18000, local run 20000, cron mail 27000 (+1000).
 * The shared test services use 21025-26012 (scripts/services.sh).
 */
export function privatePort(base: number) {
  const offset = (Number(process.env.TEST_PORT_OFFSET) || 0) % 900;
  // Never the same port twice in one file: an app a test left running until afterAll would answer in place of
  // the next one started on its port (a fresh-clone run once checked HSTS on the wrong app, a 1-in-50 draw).
  const free = Array.from({ length: 50 }, (_, i) => base + offset + i).filter((port) => !handedOut.has(port));
  if (free.length === 0) throw new Error(`privatePort(${base}): all 50 ports were handed out in this file`);
  const port = free[Math.floor(Math.random() * free.length)];
  handedOut.add(port);
  return port;
}
const handedOut = new Set<number>();

/**
 * Marks a port chosen beside one from privatePort (a Mailpit's HTTP port, its SMTP port + 1000) as handed out, so
 * privatePort never hands it out in this file: the mail-down test's app, on privatePort(18000), once drew its
 * Mailpit's HTTP port (a 1-in-50 draw), and the Mailpit API calls got the app's 404 page.
 */
export function holdPort(port: number) {
  handedOut.add(port);
  return port;
}
