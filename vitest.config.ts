import { defineConfig } from "vitest/config";

// The harness's own tests. Suites' checks are not tests of this config: they run only
// through `idconform run`, which hands them a profile.
export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts", "test/e2e/**/*.test.ts"],
    exclude: ["test/fixture/**", "suites/**", "node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // e2e tests spawn the CLI, which starts its own vitest: two files at a time suit 2 cores.
    maxWorkers: 2,
    sequence: { seed: 1 },
    reporters: process.env.CI ? ["default"] : ["default"],
  },
});
