import { fork, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { errorMessage, log } from "~/server/log.server";

/**
 * The image worker (scripts/image-worker.mjs): one long-lived child process, at the lowest CPU priority, that
 * decodes uploaded images and writes them out again, so a stream of decodes never takes the core that sign-ins,
 * pages and the database need (issue 35 item 4: in the app's own process, 50-megapixel PNGs from one link made
 * sign-ins 3.9 times slower). Started at the first job; a worker that crashes or hangs (no answer within the
 * job's time) is killed, its job answered `failed`, and the next job starts a new one. It never keeps the app's
 * process alive, and it exits when the app does (scripts/image-worker.mjs). Callers send one job at a time
 * (images.server.ts keeps the line); one in flight per worker is all this expects.
 */

/** What the worker is asked to do with one image (scripts/image-worker.mjs carries it out). */
export type WorkerJob = {
  bytes: Uint8Array;
  /** sharp's input options: the pixel cap, the first frame only, damaged data refused. */
  decode: Record<string, unknown>;
  /** The longest side of the stored copy. */
  maxPx: number;
  /** The stored copy's format and its encoder's options (sharp's toFormat). */
  format: "png" | "jpeg" | "webp";
  options: Record<string, unknown>;
  /** The WebP preview's longest side and quality. */
  thumb: { maxPx: number; quality: number };
};
export type WorkerAnswer =
  | { image: { body: Uint8Array; thumb: Uint8Array; width: number; height: number } }
  | { unreadable: true }
  | { failed: "crashed" | "timed-out" };

const WORKER_FILE = "scripts/image-worker.mjs";

/** The worker's file, from the project's root: the build (build/index.js) and the sources sit at different depths. */
function workerFile() {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, WORKER_FILE))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`${WORKER_FILE} was not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return path.join(dir, WORKER_FILE);
}

type Worker = { child: ChildProcess; pending: Map<number, (answer: WorkerAnswer) => void> };
let worker: Worker | null = null;
let nextId = 1;

function startWorker(): Worker {
  const child = fork(workerFile(), [], {
    serialization: "advanced", // the image's bytes cross as bytes, not as JSON
    execArgv: [],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const started: Worker = { child, pending: new Map() };
  child.unref();
  child.channel?.unref(); // referenced only while a job is in flight
  child.on("message", (message: { id: number } & WorkerAnswer) => started.pending.get(message.id)?.(message));
  const gone = (reason: string) => {
    if (worker === started) worker = null;
    if (started.pending.size) log("error", "image_worker.failed", { pid: child.pid ?? null, reason });
    for (const settle of started.pending.values()) settle({ failed: "crashed" });
  };
  child.on("exit", (code, signal) => gone(signal ?? `exit ${code}`));
  child.on("error", (error) => {
    gone(errorMessage(error));
    child.kill("SIGKILL");
  });
  log("info", "image_worker.started", { pid: child.pid ?? null });
  return started;
}

/**
 * Runs one job in the worker (started if none runs). A worker that exits meanwhile, or does not answer within
 * `timeoutMs`, answers `failed` (a hung one is killed first); the next job gets a new worker.
 */
export function runInImageWorker(job: WorkerJob, timeoutMs: number): Promise<WorkerAnswer> {
  const current = (worker ??= startWorker());
  const id = nextId++;
  return new Promise((resolve) => {
    const settle = (answer: WorkerAnswer) => {
      clearTimeout(timer);
      current.pending.delete(id);
      if (!current.pending.size) current.child.channel?.unref();
      resolve(answer);
    };
    const timer = setTimeout(() => {
      log("error", "image_worker.timed_out", { pid: current.child.pid ?? null, timeout_ms: timeoutMs });
      settle({ failed: "timed-out" });
      if (worker === current) worker = null;
      current.child.kill("SIGKILL");
    }, timeoutMs);
    current.pending.set(id, settle);
    current.child.channel?.ref();
    current.child.send({ id, job }, (error) => error && settle({ failed: "crashed" }));
  });
}
