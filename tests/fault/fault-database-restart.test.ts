import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, expect, it, onTestFailed } from "vitest";
import { CONTACT_MESSAGES } from "~/domain/contact";
import { connectDb, disconnectDb, isDatabaseUnavailable } from "~/server/db.server";
import { postForm, startAppProcess, type AppProcess } from "../support/app-process";
import { uniqueAddress } from "../support/mailpit";
import { privatePort, startFerretDb, stopProcess } from "../support/processes";

// The app in production mode on a private FerretDB that this test stops and starts while requests flow.
const dbPort = privatePort(14000);
const appPort = privatePort(15000);
let dir = "";
let db: ChildProcess | undefined;
let app: AppProcess | undefined;
const startDb = async () => {
  db = await startFerretDb(dbPort, dir);
};
afterAll(async () => {
  await app?.stop();
  if (db) await stopProcess(db);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const STACK = /\n\s+at .+:\d+:\d+/;
type Answer = { kind: "page" | "contact"; status: number; body: string; at: number; ms: number };

it(
  "answers 503 with a message while the database restarts, leaves no partial documents, and recovers by itself",
  { timeout: 150_000 },
  async () => {
    // A failure (a time-out included) prints what the app logged, so a rare one can be read from one run.
    onTestFailed(() => {
      const lines = (app?.output() ?? "").split("\n");
      // What went wrong is in the lines that are not plain requests; the last ones show the recovery.
      console.log(
        `the app's warnings and errors:\n${lines
          .filter((l) => !/"level":"info"/.test(l))
          .slice(0, 80)
          .join("\n")}`,
      );
      console.log(`the app's last log lines:\n${lines.slice(-30).join("\n")}`);
    });
    dir = await mkdtemp(path.join(tmpdir(), "ferret-restart-"));
    await startDb();
    const uri = `mongodb://127.0.0.1:${dbPort}/fault`;
    app = await startAppProcess({
      port: appPort,
      env: { MONGODB_URI: uri, BUSINESS_EMAIL: uniqueAddress("business") },
    });
    const base = app.url;

    // A page that reads the database on GET (an intake link is looked up), and the contact form, which writes.
    const page = () =>
      fetch(`${base}/intake-form?token=${"x".repeat(43)}`, { redirect: "manual", signal: AbortSignal.timeout(30_000) });
    const contact = (i: number) =>
      postForm(`${base}/contact`, {
        name: `Visitor ${i}`,
        email: `visitor${i}@example.test`,
        message: "Hello, I would like a website for my bakery, please.",
      });
    expect((await page()).status).toBe(302);
    expect((await contact(0)).status).toBe(303);

    const answers: Answer[] = [];
    const started = Date.now();
    let stopLoad = false;
    let n = 0;
    const worker = async (kind: Answer["kind"]) => {
      for (let i = 0; i < 400 && !stopLoad; i++) {
        const sent = Date.now();
        const res = await (kind === "page" ? page() : contact(++n)).catch((e: Error) => ({
          status: 0,
          text: async () => e.message,
        }));
        answers.push({ kind, status: res.status, body: await res.text(), at: sent - started, ms: Date.now() - sent });
        await sleep(100);
      }
    };
    const load = Promise.all([worker("page"), worker("page"), worker("contact"), worker("contact")]);

    await sleep(2_000);
    await stopProcess(db!);
    const downAt = Date.now() - started;
    await sleep(12_000);
    await startDb();
    const upAt = Date.now() - started;

    // Recovery by itself: within 30 s of the restart the same requests succeed again.
    let recoveredAt = NaN;
    for (let i = 0; i < 150; i++) {
      if ((await page()).status === 302) {
        recoveredAt = Date.now() - started;
        break;
      }
      await sleep(200);
    }
    await sleep(2_000);
    stopLoad = true;
    await load;

    expect(recoveredAt - upAt).toBeLessThan(30_000);
    expect((await contact(9_999)).status).toBe(303);

    const statuses = answers.reduce<Record<string, number>>(
      (m, a) => ({ ...m, [`${a.kind} ${a.status}`]: (m[`${a.kind} ${a.status}`] ?? 0) + 1 }),
      {},
    );
    const waits = answers.filter((a) => a.status === 503).map((a) => a.ms);
    console.log(
      `database down at ${downAt} ms, up at ${upAt} ms, app recovered at ${recoveredAt} ms; 503s took ${Math.min(...waits)}-${Math.max(...waits)} ms; answers:`,
      statuses,
    );
    // Every answer is a success or a 503 that says what happened; none is a 500, a dropped connection or a stack.
    for (const a of answers) {
      expect([200, 302, 303, 503], `${a.kind} answered ${a.status} at ${a.at} ms: ${a.body.slice(0, 300)}`).toContain(
        a.status,
      );
      expect(a.body).not.toMatch(STACK);
      if (a.status === 503)
        expect(a.body).toContain(a.kind === "page" ? "503 Service Unavailable" : CONTACT_MESSAGES.failed);
    }
    expect(answers.some((a) => a.status === 503)).toBe(true);
    expect(answers.filter((a) => a.at > recoveredAt + 500).every((a) => a.status !== 503)).toBe(true);
    expect(app.output()).not.toMatch(/"level":"error","event":"request.failed"/);

    // No partial documents: every stored message is whole and has its e-mail queued.
    const conn = await mongoose.createConnection(uri).asPromise();
    try {
      const messages = await conn.collection("contact_messages").find().toArray();
      expect(messages.length).toBeGreaterThan(1);
      for (const m of messages) {
        expect(m, JSON.stringify(m)).toMatchObject({
          name: expect.any(String),
          email: expect.any(String),
          message: expect.any(String),
        });
        expect(await conn.collection("outbox").countDocuments({ key: `contact:${m._id}` }), `mail for ${m._id}`).toBe(
          1,
        );
      }
    } finally {
      await conn.close();
    }
  },
);

it("tells an unreachable database (first connection or later) from other errors, which stay 500s", async () => {
  const closed = privatePort(19000);
  const refused = await mongoose
    .createConnection(`mongodb://127.0.0.1:${closed}/x`, { serverSelectionTimeoutMS: 300 })
    .asPromise()
    .catch((e: unknown) => e);
  expect(isDatabaseUnavailable(refused)).toBe(true);
  expect(isDatabaseUnavailable(new Error("Nothing to submit"))).toBe(false);
  expect(isDatabaseUnavailable(Object.assign(new Error("E11000 duplicate key"), { code: 11000 }))).toBe(false);
  expect(isDatabaseUnavailable("a string")).toBe(false);
  // A socket's bare error is the database's only just after one of its connections failed (the last test).
  expect(isDatabaseUnavailable(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }))).toBe(false);
  // A server that answers only to say it is going away (FerretDB's stop, MongoDB's shutdown).
  const serverError = (message: string, code: number) =>
    Object.assign(new Error(message), { name: "MongoServerError", code });
  expect(isDatabaseUnavailable(serverError("context canceled", 1))).toBe(true);
  expect(isDatabaseUnavailable(serverError("sql: database is closed", 1))).toBe(true);
  expect(isDatabaseUnavailable(serverError("interrupted at shutdown", 11600))).toBe(true);
  expect(isDatabaseUnavailable(serverError("unknown operator: $foo", 2))).toBe(false);
  expect(isDatabaseUnavailable(serverError("some internal error", 1))).toBe(false);
  expect(isDatabaseUnavailable(Object.assign(new Error("Server is closed"), { name: "MongoServerClosedError" }))).toBe(
    true,
  );
  expect(
    isDatabaseUnavailable(Object.assign(serverError("not primary", 2), { errorLabels: ["RetryableWriteError"] })),
  ).toBe(true);
});

it("classes every error a query meets as the database stops as unavailable, the driver's bare socket errors too", async () => {
  const port = privatePort(14000);
  const stopDir = await mkdtemp(path.join(tmpdir(), "ferret-stop-"));
  const ferret = await startFerretDb(port, stopDir);
  try {
    const items = (await connectDb(`mongodb://127.0.0.1:${port}/stop`)).connection.collection("items");
    await items.insertOne({ name: "a" });
    // Commands too big to leave in one write: when the server goes, some wait for the socket to drain, which is
    // where the driver lets the socket's own error through ("write EPIPE"; 5 of 6 tries by hand).
    const pad = "y".repeat(2_000_000);
    const errors: Error[] = [];
    let stop = false;
    const worker = async (i: number) => {
      while (!stop) await items.findOne(i % 2 ? { name: "a", pad } : { name: "a" }).catch((e: Error) => errors.push(e));
    };
    const workers = Array.from({ length: 40 }, (_, i) => worker(i));
    await sleep(1_000);
    await stopProcess(ferret);
    await sleep(3_000);
    stop = true;
    await Promise.all(workers);
    const named = (e: Error) => `${e.name} ${(e as NodeJS.ErrnoException).code ?? ""} ${e.message}`;
    console.log("errors met as the database stopped:", [...new Set(errors.map(named))]);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.filter((e) => !isDatabaseUnavailable(e)).map(named)).toEqual([]);
  } finally {
    await disconnectDb();
    await stopProcess(ferret);
    await rm(stopDir, { recursive: true, force: true });
  }
}, 60_000);
