import { defineConfig } from "vitest/config";

// The test StrykerJS runs for `npm run mutation` (scripts/mutation.mjs): the suite named by
// IDC_MUTATION_SUITE, its checks against its reference target in this process.
export default defineConfig({
  test: {
    include: ["test/mutation/suite.mutation.ts"],
    // A mutant can make a check wait on every request: the check's own timeouts decide it.
    testTimeout: 400_000,
    hookTimeout: 120_000,
    sequence: { seed: 1 },
  },
});
