import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Redactor } from "../http/redactor.js";
import { renderHtml } from "./html.js";
import { renderJunit } from "./junit.js";
import { writeAllureResults } from "./allure.js";
import type { Results } from "./results.js";
import { diffResults, type ResultsDiff } from "./diff.js";

export interface Written {
  readonly dir: string;
  readonly html: string;
  readonly json: string;
  readonly junit: string;
  readonly allure: string;
}

/**
 * Writes every output of a run. The results pass the redactor once more as a whole: a
 * secret that reached any text by an unforeseen path is still replaced before it lands.
 * `compare`: an earlier run's results; report.html then opens with what changed since.
 */
export function writeReports(
  results: Results,
  dir: string,
  redactor: Redactor,
  opts: { compare?: Results } = {},
): Written & { results: Results; diff?: ResultsDiff } {
  mkdirSync(dir, { recursive: true });
  const clean = redactor.deep(results);
  const out = {
    dir,
    html: join(dir, "report.html"),
    json: join(dir, "results.json"),
    junit: join(dir, "junit.xml"),
    allure: join(dir, "allure-results"),
    results: clean,
  };
  writeFileSync(out.json, `${JSON.stringify(clean, null, 2)}\n`);
  const diff = opts.compare ? redactor.deep(diffResults(opts.compare, clean)) : undefined;
  writeFileSync(
    out.html,
    renderHtml(clean, { ...(diff ? { compare: diff } : {}), redact: (s) => redactor.text(s) }),
  );
  writeFileSync(out.junit, renderJunit(clean));
  writeAllureResults(clean, out.allure);
  return diff ? { ...out, diff } : out;
}
