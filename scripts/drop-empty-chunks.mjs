// Removes the empty script files the Remix classic compiler leaves in the browser
// build. Each `*.server.ts` module a route imports becomes, in the browser, an
// empty CommonJS module (`module.exports = {}`); one shared by several routes is
// emitted as its own ~100-byte chunk, and every page that imports it pays a
// request for nothing (5 of the 21 files on /checkout). The compiler has no
// option for this, so after `remix build` this script gives each importer a
// local empty stand-in, drops the files and takes them out of both copies of the
// asset manifest (the browser's and the server build's). A build whose output
// does not look as expected is left untouched.
//   node scripts/drop-empty-chunks.mjs        (npm run build runs it)
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { EMPTY_CHUNK } from "./empty-chunk.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const publicDir = path.join(root, "public");
const buildDir = path.join(publicDir, "build");
const serverBuild = path.join(root, "build/index.js");

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const files = (await readdir(buildDir, { recursive: true, withFileTypes: true }))
  .filter((e) => e.isFile() && e.name.endsWith(".js"))
  .map((e) => path.join(e.parentPath ?? e.path, e.name));
const sources = new Map(await Promise.all(files.map(async (f) => [f, await readFile(f, "utf8")])));

const empty = [...sources]
  .filter(([, code]) => EMPTY_CHUNK.test(code))
  .map(([file]) => "/" + path.relative(publicDir, file).split(path.sep).join("/"));
if (!empty.length) {
  console.log("drop-empty-chunks: no empty chunks");
  process.exit(0);
}

const rewritten = new Map();
const serverCode = await readFile(serverBuild, "utf8");
for (const [file, code] of [...sources, [serverBuild, serverCode]]) {
  const manifest = file === serverBuild || /manifest-[A-Z0-9]+\.js$/.test(file);
  let out = code;
  for (const url of empty) {
    const u = escape(url);
    out = out
      .replace(
        new RegExp(`import\\{a(?: as ([\\w$]+))?\\}from"${u}";`, "g"),
        (_, name = "a") => `var ${name}=()=>({});`,
      )
      .replace(new RegExp(`import"${u}";`, "g"), "");
    // manifest arrays: "a", "b" (server build) or "a","b" (browser manifest); never code
    if (manifest)
      out = out
        .replace(new RegExp(`"${u}",\\s*`, "g"), "")
        .replace(new RegExp(`,\\s*"${u}"`, "g"), "")
        .replace(new RegExp(`"${u}"`, "g"), "");
  }
  if (out !== code) rewritten.set(file, out);
}

// Only write when nothing still points at a dropped file.
const stillUsed = [...rewritten.values(), ...[...sources].filter(([f]) => !rewritten.has(f)).map(([, c]) => c)].some(
  (code) => empty.some((url) => code.includes(url)),
);
if (stillUsed) {
  console.error("drop-empty-chunks: an empty chunk is still referenced; build left as it was");
  process.exit(0);
}
for (const [file, code] of rewritten) await writeFile(file, code);
await Promise.all(empty.map((url) => rm(path.join(publicDir, url))));
console.log(`drop-empty-chunks: removed ${empty.length} empty chunks, rewrote ${rewritten.size} files`);
