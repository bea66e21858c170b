import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { HarnessError } from "../engine/errors.js";
import { Redactor } from "../http/redactor.js";
import { mergeResults } from "../report/merge.js";
import { readResults } from "../report/validate.js";
import { writeReports, type Written } from "../report/write.js";
import { parse } from "./args.js";
import { err, printSummary } from "./output.js";

const USAGE =
  "idconform report <results.json> [--allure] [--out dir]\n       idconform report --merge <dir|results.json> ... [--out dir] [--allure]";

/** Re-renders a results.json (and optionally Allure's single-file HTML), or merges shards. */
export async function reportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { merge: { type: "boolean" }, allure: { type: "boolean" }, out: { type: "string" } },
    USAGE,
  );
  if (positionals.length === 0) throw new HarnessError("IDC_USAGE", `name a results.json\n\nusage: ${USAGE}`);
  if (!values.merge && positionals.length > 1)
    throw new HarnessError("IDC_USAGE", `one results.json, or --merge for several\n\nusage: ${USAGE}`);
  const files = positionals.map((p) =>
    existsSync(p) && statSync(p).isDirectory() ? join(p, "results.json") : p,
  );
  const parts = files.map((f) => readResults(f));
  const results = values.merge ? mergeResults(parts) : parts[0]!;
  const dir = resolve(values.out ?? (values.merge ? join("reports", results.run.id) : dirname(files[0]!)));
  // The documents were redacted when written; nothing secret is known here, nothing new is added.
  const written = writeReports(results, dir, new Redactor());
  if (values.allure) buildAllureHtml(written);
  printSummary(written.results, written);
  return results.outcome.exitCode;
}

/** Builds Allure's single-file HTML report from allure-results with the `allure` package (no Java). */
export function buildAllureHtml(w: Written): string {
  const require = createRequire(import.meta.url);
  // The package exports no package.json; its bin sits beside dist/.
  const cli = join(dirname(require.resolve("allure")), "..", "cli.js");
  const output = join(w.dir, "allure-report");
  mkdirSync(output, { recursive: true });
  const config = join(w.dir, "allurerc.mjs");
  writeFileSync(
    config,
    `export default ${JSON.stringify({ name: "idconform", output, plugins: { awesome: { options: { singleFile: true, reportName: "idconform" } } } }, null, 2)};\n`,
  );
  const res = spawnSync(
    process.execPath,
    [cli, "generate", w.allure, "--config", config, "--output", output],
    {
      encoding: "utf8",
      timeout: 120_000,
    },
  );
  if (res.status !== 0)
    throw new HarnessError(
      "IDC_INTERNAL",
      `allure generate failed: ${(res.stderr || res.stdout || String(res.error)).slice(0, 2000)}`,
    );
  err(`allure: ${join(output, "index.html")}`);
  return join(output, "index.html");
}
