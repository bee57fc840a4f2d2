// Starts a real mongod through mongodb-memory-server, persistent in data/dev/mongod,
// on 127.0.0.1:27017. Exits non-zero at once when the binary cannot be had
// (no download possible), so scripts/start.sh can fall back to FerretDB.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MongoBinary, MongoMemoryServer } from "mongodb-memory-server-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dbPath = path.join(root, "data/dev/mongod");
await mkdir(dbPath, { recursive: true });

// The binary first (found or downloaded): when that fails, the library's own start would print the
// error's whole stack; here it is one line, and npm start falls back to FerretDB.
try {
  await MongoBinary.getPath();
} catch (error) {
  const why = error instanceof Error ? (error.msg ?? error.code ?? error.message.split("\n")[0]) : String(error);
  console.error(`[services] no mongod binary here and none could be downloaded (${why})`);
  process.exit(1);
}

try {
  const server = await MongoMemoryServer.create({
    instance: { ip: "127.0.0.1", port: Number(process.env.MONGO_PORT ?? 27017), dbPath, storageEngine: "wiredTiger" },
  });
  console.error(`[services] mongod (mongodb-memory-server) listening at ${server.getUri()}`);
  const stop = async () => {
    await server.stop({ doCleanup: false });
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
} catch (error) {
  console.error(`[services] mongod unavailable (${error instanceof Error ? error.message.split("\n")[0] : error})`);
  process.exit(1);
}
