// Prints every collection and its indexes as the models declare them (what
// MongoDB builds at start), as the Markdown table in docs/scaling.md.
//   npx tsx scripts/bench/indexes.ts           (BENCH_SMOKE=1: the same; it has nothing to shrink)
import { allModels } from "~/server/models/index.server";

console.log("| collection | indexes (`!` = unique) |");
console.log("|---|---|");
for (const model of allModels().sort((a, b) =>
  a.collection.collectionName.localeCompare(b.collection.collectionName),
)) {
  const indexes = model.schema.indexes().map(([fields, options]) => {
    const keys = Object.entries(fields)
      .map(([k, v]) => (v === -1 ? `${k} desc` : k))
      .join(", ");
    return `${options?.unique ? "!" : ""}${keys}`;
  });
  console.log(`| ${model.collection.collectionName} | _id${indexes.length ? "; " + indexes.join("; ") : ""} |`);
}
