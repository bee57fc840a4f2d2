import path from "node:path";
import { defineConfig } from "vitest/config";
import { SlowestFirstSequencer } from "./tests/support/sequencer";

const alias = { "~": path.resolve(__dirname, "app") };

export default defineConfig({
  resolve: { alias },
  test: {
    // The longest files first in each project (tests/support/sequencer.ts).
    sequence: { sequencer: SlowestFirstSequencer },
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", sequence: { groupOrder: 0 } },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          sequence: { groupOrder: 1 },
          include: ["tests/integration/**/*.test.ts"],
          setupFiles: ["tests/support/service-env.ts"],
          globalSetup: ["tests/support/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          expect: { poll: { timeout: 15_000 } },
          // Two files at a time (vitest's default on two cores is one): each file has a database of its
          // own (tests/support/db.ts); the three that talk to the running app (fuzz, http-edge, seed-pages)
          // post from addresses of their own and assert nothing about what the others store there.
          maxWorkers: 2,
        },
      },
      {
        // Fault tests start their own app processes and stop or restart services (database restart,
        // mail down, two instances, a restart, the local run): slow, and apart from the everyday loop.
        resolve: { alias },
        test: {
          name: "fault",
          sequence: { groupOrder: 3 },
          include: ["tests/fault/**/*.test.ts"],
          setupFiles: ["tests/support/service-env.ts"],
          globalSetup: ["tests/support/global-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          sequence: { groupOrder: 2 },
          include: ["tests/e2e/**/*.test.ts"],
          setupFiles: ["tests/support/service-env.ts"],
          globalSetup: ["tests/support/global-setup.ts"],
          testTimeout: 90_000,
          hookTimeout: 60_000,
          // expect.poll waits for what a page does after a press; vitest's default (1 s) is shorter than one
          // post's round trip on a busy machine (load 12-20 in a full run), where the effect comes, late.
          expect: { poll: { timeout: 15_000 } },
          maxWorkers: 2,
          // Tests marked concurrent wait on the clock, not the machine (the six 30-second answers of
          // tests/support/dropped-link.ts): all at once rather than vitest's default five, then one.
          maxConcurrency: 6,
        },
      },
    ],
  },
});
