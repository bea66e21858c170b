/**
 * How idconform starts Chromium, for the report's browser tests and for a suite's browser step
 * alike: Debian's Chromium (never a downloaded browser), at CHROMIUM_PATH if set, with no
 * sandbox, GPU, QUIC or background traffic.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
