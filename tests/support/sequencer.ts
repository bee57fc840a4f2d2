import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The test files that take longest, longest first (CI's runs, test-results/vitest.json). They start
 * before the others of their project, so that with two workers the long ones run side by side and
 * the short ones fill in after; no worker ends the run with one long file alone. Without this, a
 * fresh clone (no vitest cache) starts the largest files first: dropped-link-forms.test.ts, 5 KB
 * and then 219 s, started last and ran three minutes alone while the other worker sat idle.
 * A stale entry costs time, never a result: the order of files changes nothing they check.
 */
export const SLOWEST_FIRST = [
  "tests/e2e/dropped-link.test.ts",
  "tests/e2e/accessibility.test.ts",
  "tests/e2e/dropped-link-forms.test.ts",
  "tests/e2e/admin.test.ts",
  "tests/e2e/two-factor.test.ts",
  "tests/e2e/customer.test.ts",
  "tests/e2e/intake-files.test.ts",
  "tests/integration/fuzz.test.ts",
  "tests/integration/accounts.test.ts",
  "tests/fault/fault-database-restart.test.ts",
];

/** Vitest's own order (projects in their groupOrder, then its cache or file size), the files above first in each project. */
export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = SLOWEST_FIRST.indexOf(path.relative(this.ctx.config.root, spec.moduleId).split(path.sep).join("/"));
      return index < 0 ? SLOWEST_FIRST.length : index;
    };
    // Within each project's run of files (super.sort keeps them together); Array.sort is stable.
    const runs: TestSpecification[][] = [];
    for (const spec of sorted) {
      const last = runs.at(-1);
      if (last && last[0].project.name === spec.project.name) last.push(spec);
      else runs.push([spec]);
    }
    return runs.flatMap((run) => run.sort((a, b) => rank(a) - rank(b)));
  }
}
