/**
 * The whole of an empty script as the Remix classic compiler writes it: each `*.server.ts`
 * module a route imports becomes, in the browser, an empty CommonJS module, and one shared by
 * several routes is emitted as its own ~100-byte chunk:
 *   import{b as o}from"/build/_shared/chunk-X.js";var p=o((r,e)=>{e.exports={}});export{p as a};
 * drop-empty-chunks.mjs removes them from the build; page-weight.mjs fails a page that loads one.
 */
export const EMPTY_CHUNK =
  /^import\{b as ([\w$]+)\}from"[^"]+";var ([\w$]+)=\1\(\(([\w$]+),([\w$]+)\)=>\{\4\.exports=\{\}\}\);export\{\2 as a\};\s*$/;
