import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CheckResult } from "../../src/engine/check.js";
import { openSuite } from "../../src/engine/in-process.js";
import type { Results } from "../../src/report/results.js";
import { ROOT, tempDir, writeProfile } from "./cli.js";

/** The demo credential issuance profile with `replace` applied. */
export function demoVci(replace: (yaml: string) => string = (y) => y): string {
  return replace(readFileSync(join(ROOT, "profiles", "demo", "vci.yaml"), "utf8"));
}

/** What some checks of the vci suite decided against the reference issuer. */
export interface FlowRun {
  readonly checks: readonly CheckResult[];
  readonly results: Results;
  /** The verdict of each requirement over the checks run. */
  readonly verdict: Record<string, string>;
  /** Every finding message of a requirement, joined. */
  readonly said: (requirement: string) => string;
}

/**
 * Runs only `checks` of the vci suite in this process, against the reference issuer with
 * `faults` and `targetOptions`, read through the profile `yaml` (a variant of the demo's).
 */
export async function runVciChecks(
  checks: readonly string[],
  o: { yaml?: string; faults?: readonly string[]; targetOptions?: Record<string, unknown> } = {},
): Promise<FlowRun> {
  const s = await openSuite({
    suite: "vci",
    faults: o.faults ?? [],
    ...(o.yaml !== undefined ? { profileFile: writeProfile(tempDir("idc-vci-flow-"), o.yaml) } : {}),
    ...(o.targetOptions ? { targetOptions: o.targetOptions } : {}),
  });
  const done: CheckResult[] = [];
  try {
    for (const id of checks) done.push(await s.run(id));
  } finally {
    await s.close();
  }
  const { results } = s.finish(done, { complete: false });
  const verdict = Object.fromEntries(results.requirements.map((r) => [r.id, r.verdict]));
  const said = (requirement: string): string =>
    done
      .flatMap((c) => c.findings)
      .filter((f) => f.requirements.includes(requirement))
      .map((f) => [f.message, f.expected, f.actual].filter(Boolean).join(" | "))
      .join("\n");
  return { checks: done, results, verdict, said };
}
