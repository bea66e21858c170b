import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./src/http/chromium.js";

// Browser tests of report.html, in Debian's Chromium (never a downloaded browser).
export default defineConfig({
  testDir: "test/browser",
  timeout: 120_000,
  workers: 1,
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    headless: true,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
    },
  },
});
