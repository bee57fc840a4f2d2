import { type ChildProcess, execFile } from "node:child_process";
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import mongoose from "mongoose";
import { afterAll, describe, expect, it } from "vitest";
import { privatePort, startFerretDb, stopProcess } from "../support/processes";

// What a newcomer's `npm start` does before the app: build only the stand-ins it runs, and say in one
// line when no mongod can be had. Run against copies, with a `go` that records what it was asked to build.
const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");
let dir = "";
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("npm start on a fresh clone", () => {
  it("builds only the stand-in a command runs, once", { timeout: 60_000 }, async () => {
    dir ||= await mkdtemp(path.join(tmpdir(), "start-script-"));
    const copy = path.join(dir, "repo");
    await mkdir(path.join(copy, "scripts"), { recursive: true });
    await cp(path.join(root, "scripts/services.sh"), path.join(copy, "scripts/services.sh"));
    await cp(path.join(root, "scripts/services"), path.join(copy, "scripts/services"), { recursive: true });
    const fakeBin = path.join(dir, "fake-bin");
    await mkdir(fakeBin);
    // `go build -o DIR/ PACKAGE`: records the package and leaves an executable named after it.
    await writeFile(
      path.join(fakeBin, "go"),
      `#!/bin/sh\necho "$@" >> "${dir}/go-calls"\nout="$3"; pkg="$4"\ntouch "$out$(basename "$pkg")"\nchmod +x "$out$(basename "$pkg")"\n`,
    );
    await chmod(path.join(fakeBin, "go"), 0o755);
    const env = { ...process.env, PATH: `${fakeBin}:${process.env.PATH}` };
    await run("bash", [path.join(copy, "scripts/services.sh"), "build", "mail"], { env });
    await run("bash", [path.join(copy, "scripts/services.sh"), "build", "mail"], { env });
    const calls = (await readFile(path.join(dir, "go-calls"), "utf8")).trim().split("\n");
    expect(calls).toEqual([`build -o ${path.join(copy, ".cache/bin")}/ github.com/axllent/mailpit`]);
  });

  it("says in one line that no mongod could be had (no stack trace)", { timeout: 60_000 }, async () => {
    dir ||= await mkdtemp(path.join(tmpdir(), "start-script-"));
    const answer = await run("node", [path.join(root, "scripts/mongod.mjs")], {
      env: {
        ...process.env,
        MONGO_PORT: "1",
        // Nowhere to download from and no binary cached: what a machine without the download sees.
        MONGOMS_DOWNLOAD_DIR: path.join(dir, "no-mongod"),
        MONGOMS_DOWNLOAD_MIRROR: "http://127.0.0.1:9",
        MONGOMS_SYSTEM_BINARY: "",
      },
    }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(answer.code).toBe(1);
    const lines = answer.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[services\] no mongod binary here and none could be downloaded \(.+\)$/);
  });
});

// Not our code: the FerretDB that scripts/services.sh builds, which the embedded default and every test
// run on, keeps what ARCHITECTURE.md rule 7 relies on across a restart of the server. On a private
// FerretDB, so stopping it does not disturb the other test files.
describe("the database stand-in scripts/services.sh builds", () => {
  const port = privatePort(11000);
  let ferretDir = "";
  let server: ChildProcess | undefined;
  const start = async () => {
    server = await startFerretDb(port, ferretDir);
  };
  const things = (connection: mongoose.Connection) =>
    connection.model("Thing", new mongoose.Schema({ key: { type: String, unique: true }, value: Number }));
  afterAll(async () => {
    if (server) await stopProcess(server);
    if (ferretDir) await rm(ferretDir, { recursive: true, force: true });
  });

  it("keeps data and unique indexes across a restart of the database server", async () => {
    ferretDir = await mkdtemp(path.join(tmpdir(), "ferret-"));
    await start();
    const Thing = things(mongoose.createConnection(`mongodb://127.0.0.1:${port}/restart`));
    await Thing.init();
    await Thing.create({ key: "order-1", value: 30000 });
    await Thing.db.close();

    await stopProcess(server!);
    await start();

    const Same = things(mongoose.createConnection(`mongodb://127.0.0.1:${port}/restart`));
    const found = await Same.findOne({ key: "order-1" }).lean();
    expect(found?.value).toBe(30000);
    await expect(Same.create({ key: "order-1", value: 1 })).rejects.toMatchObject({ code: 11000 });
    await Same.db.close();
  });
});
