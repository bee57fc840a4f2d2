// Compresses the built browser assets once, at build time: for every .js, .css,
// .svg and .map file in public/build, a .br (brotli, best quality) and a .gz
// (gzip -9) beside it, each kept only when smaller than the file itself.
// scripts/server.mjs serves those to browsers that accept them, so no request
// pays for compressing a file that never changes. Small files count too: a page
// loads several chunks of a few hundred bytes, which on-the-fly compression
// (1 KB threshold) sent raw, about 2.5 KB more per form page.
//   node scripts/compress-assets.mjs [dir]      (npm run build runs it)
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dir = path.resolve(process.argv[2] ?? "public/build");
const COMPRESSIBLE = /\.(js|css|svg|map|json)$/;

let files = 0;
let before = 0;
let after = 0;
for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
  const file = path.join(entry.parentPath ?? entry.path, entry.name);
  const body = await readFile(file);
  const br = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  const gz = gzipSync(body, { level: 9 });
  if (br.length < body.length) await writeFile(`${file}.br`, br);
  if (gz.length < body.length) await writeFile(`${file}.gz`, gz);
  files++;
  before += body.length;
  after += Math.min(br.length, body.length);
}
console.log(
  `compressed ${files} assets in ${path.relative(process.cwd(), dir)}: ${(before / 1024).toFixed(0)} KB -> ${(after / 1024).toFixed(0)} KB brotli`,
);
