import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, expect, it } from "vitest";
import { privatePort, startBinary, stopProcess, waitForPort } from "../support/processes";

// A private FerretDB, so stopping it does not disturb the other test files.
const port = privatePort(11000);
let dir = "";
let server: ReturnType<typeof startBinary> | undefined;

async function start() {
  server = startBinary("ferretdb", ["-listen", `127.0.0.1:${port}`, "-dir", dir]);
  await waitForPort(port);
}

afterAll(async () => {
  if (server) await stopProcess(server);
  if (dir) await rm(dir, { recursive: true, force: true });
});

it("keeps data and unique indexes across a restart of the database server", async () => {
  dir = await mkdtemp(path.join(tmpdir(), "ferret-"));
  await start();

  const Thing = mongoose
    .createConnection(`mongodb://127.0.0.1:${port}/restart`)
    .model("Thing", new mongoose.Schema({ key: { type: String, unique: true }, value: Number }));
  await Thing.init();
  await Thing.create({ key: "order-1", value: 30000 });
  await Thing.db.close();

  await stopProcess(server!);
  await start();

  const again = mongoose.createConnection(`mongodb://127.0.0.1:${port}/restart`);
  const Same = again.model("Thing", new mongoose.Schema({ key: { type: String, unique: true }, value: Number }));
  const found = await Same.findOne({ key: "order-1" }).lean();
  expect(found?.value).toBe(30000);
  await expect(Same.create({ key: "order-1", value: 1 })).rejects.toMatchObject({ code: 11000 });
  await again.close();
});
