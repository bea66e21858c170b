#!/usr/bin/env node
// `npm test`: the harness's unit and end-to-end tests (vitest), then the browser tests of
// report.html (Playwright in Debian's Chromium). Ends with one "N passed, N failed" line.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } }).status ?? 1;

function ensureChromium() {
  if (existsSync(chromium)) return true;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const command = "apt-get update && apt-get install -y --no-install-recommends chromium";
  if (!isRoot) {
    console.error(
      `Chromium is missing at ${chromium}; the browser tests need it. Install it with:\n  sudo sh -c "${command}"\n(or set CHROMIUM_PATH)`,
    );
    return false;
  }
  console.error(`Chromium is missing at ${chromium}: installing Debian's chromium (${command})`);
  if (run("sh", ["-c", `${command} >/dev/null`]) !== 0 || !existsSync(chromium)) {
    console.error(`Installing Chromium failed; run it by hand:\n  ${command}`);
    return false;
  }
  return true;
}

// The credential issuance suite's authorization code flow runs Chromium inside the vitest
// stage too, so the browser is made sure of before anything runs.
const haveChromium = ensureChromium();
const out = mkdtempSync(join(tmpdir(), "idc-test-"));
const vitestJson = join(out, "vitest.json");
const pwJson = join(out, "playwright.json");

const vitestStatus = run("npx", [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestJson}`,
]);
let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(vitestJson)) {
  const v = JSON.parse(readFileSync(vitestJson, "utf8"));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + (v.numTodoTests ?? 0);
} else failed += 1;

let pwStatus = 1;
if (haveChromium) {
  pwStatus = run("npx", ["playwright", "test", "--reporter=list,json"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
  });
  if (existsSync(pwJson)) {
    const s = JSON.parse(readFileSync(pwJson, "utf8")).stats;
    passed += s.expected;
    failed += s.unexpected + s.flaky;
    skipped += s.skipped;
  } else failed += 1;
} else failed += 1;

console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(vitestStatus !== 0 || pwStatus !== 0 || failed > 0 ? 1 : 0);
