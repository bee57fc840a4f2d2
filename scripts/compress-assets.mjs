// Compresses the built browser assets once, at build time: for every .js, .css,
// .svg and .map file in public/build over 1 KB, a .br (brotli, best quality) and
// a .gz (gzip -9) beside it. scripts/server.mjs serves those to browsers that
// accept them, so no request pays for compressing a file that never changes.
//   node scripts/compress-assets.mjs [dir]      (npm run build runs it)
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dir = path.resolve(process.argv[2] ?? "public/build");
const COMPRESSIBLE = /\.(js|css|svg|map|json)$/;
const MIN_BYTES = 1024;

let files = 0;
let before = 0;
let after = 0;
for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
  const file = path.join(entry.parentPath ?? entry.path, entry.name);
  const body = await readFile(file);
  if (body.length < MIN_BYTES) continue;
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  await writeFile(`${file}.br`, br);
  await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
  files++;
  before += body.length;
  after += br.length;
}
console.log(`compressed ${files} assets in ${path.relative(process.cwd(), dir)}: ${(before / 1024).toFixed(0)} KB -> ${(after / 1024).toFixed(0)} KB brotli`);
