import { existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { HarnessError } from "../engine/errors.js";
import {
  loadSuites,
  loadSuitesForProfile,
  loadTarget,
  locateSuites,
  locateTargets,
  ROOT,
} from "../engine/discovery.js";
import { loadProfile } from "../engine/profile.js";
import { makeRunId, runSuites } from "../engine/runner.js";
import { writeReports } from "../report/write.js";
import { joinSuiteRuns } from "../report/join.js";
import { Redactor, type SecretEntry } from "../http/redactor.js";
import { readResultsForDiff } from "../report/diff.js";
import type { Results } from "../report/results.js";
import { closeAgents } from "../http/client.js";
import { intArg, parse, shardArg } from "./args.js";
import { bold, err, printSummary, yellow } from "./output.js";
import { ensureChromium, hostChromiumEnv } from "./chromium-setup.js";

const RUN_USAGE =
  "idconform run <profile.yaml> [--suite s] [--grep <requirement id or prefix>] [--strict] [--seed n] [--out dir] [--shard i/n] [--compare <old results.json>] [--certify]";

/**
 * Ctrl-C once: stop the checks, clean up, write the report. Twice: stop waiting for anything,
 * write the report of what finished. A third time: leave at once.
 */
function interruptible(): { signal: AbortSignal; halt: AbortSignal; dispose: () => void } {
  const ac = new AbortController();
  const halt = new AbortController();
  let count = 0;
  const onSig = (): void => {
    count++;
    if (count === 1) {
      err(
        yellow(
          "interrupt: cleaning up and writing the report of what has run (Ctrl-C again to skip the clean-up)",
        ),
      );
      ac.abort();
    } else if (count === 2) {
      err(yellow("interrupt: writing the report of what finished now (Ctrl-C again to quit without it)"));
      halt.abort();
    } else process.exit(130);
  };
  process.on("SIGINT", onSig);
  process.on("SIGTERM", onSig);
  return {
    signal: ac.signal,
    halt: halt.signal,
    dispose: () => (process.off("SIGINT", onSig), void process.off("SIGTERM", onSig)),
  };
}

export async function runCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      suite: { type: "string", multiple: true },
      grep: { type: "string", multiple: true },
      strict: { type: "boolean" },
      seed: { type: "string" },
      out: { type: "string" },
      shard: { type: "string" },
      compare: { type: "string" },
      certify: { type: "boolean" },
    },
    RUN_USAGE,
  );
  const [profilePath, ...extra] = positionals;
  if (!profilePath || extra.length > 0)
    throw new HarnessError("IDC_USAGE", `expected exactly one profile\n\nusage: ${RUN_USAGE}`);
  const suites = await loadSuitesForProfile(profilePath);
  const profile = loadProfile(profilePath, suites);
  for (const w of profile.warnings) err(yellow(`warning: ${w}`));
  const seed = intArg("seed", values.seed, 0, 2 ** 31 - 1);
  const shard = shardArg(values.shard);
  // Read before the run: a bad file is a usage error (exit 2), not a lost run.
  const compare = values.compare !== undefined ? compareWith(values.compare) : undefined;
  const stop = interruptible();
  try {
    const { results, redactor } = await runSuites({
      profile,
      suites,
      ...(values.suite ? { only: values.suite } : {}),
      ...(values.grep ? { grep: values.grep } : {}),
      ...(values.strict ? { strict: true } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(shard ? { shard } : {}),
      ...(values.certify ? { certify: true } : {}),
      signal: stop.signal,
      halt: stop.halt,
    });
    const dir = resolve(values.out ?? join("reports", results.run.id));
    const written = writeReports(results, dir, redactor, compare ? { compare } : {});
    printSummary(written.results, written);
    if (written.diff)
      err(`compared with ${values.compare}: ${written.diff.reason} (at the top of report.html)`);
    return results.outcome.exitCode;
  } finally {
    stop.dispose();
    await closeAgents();
  }
}

function compareWith(path: string): Results {
  try {
    return readResultsForDiff(path);
  } catch (e) {
    if (e instanceof HarnessError && e.code === "IDC_RESULTS_INVALID")
      throw new HarnessError("IDC_USAGE", `--compare: ${e.message}`);
    throw e;
  }
}

const DEMO_USAGE = "idconform demo [--suite s] [--out dir]";

/**
 * Starts each embedded reference target that has a demo profile, runs its suite against
 * it, and writes one report for all of them (the suites side by side in one report.html).
 * The demo profiles read the target's URL and credentials from the environment the started
 * target hands over.
 */
export async function demoCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { suite: { type: "string", multiple: true }, out: { type: "string" } },
    DEMO_USAGE,
  );
  if (positionals.length > 0)
    throw new HarnessError("IDC_USAGE", `unexpected ${positionals.join(" ")}\n\nusage: ${DEMO_USAGE}`);
  const targets = new Set(locateTargets().map((t) => t.name));
  const demoable = locateSuites()
    .map((s) => s.name)
    .filter((n) => targets.has(n) && existsSync(join(ROOT, "profiles", "demo", `${n}.yaml`)));
  // The engine's fixture stands in only until a protocol suite has a demo.
  const real = demoable.filter((n) => n !== "fixture");
  const pick = [...new Set(values.suite ?? (real.length > 0 ? real : demoable))];
  for (const n of pick) {
    if (!demoable.includes(n))
      throw new HarnessError("IDC_SUITE_UNKNOWN", `no demo for suite "${n}"; demos: ${demoable.join(", ")}`);
  }
  // Before any target starts: a missing browser is installed (root) or named with its command.
  ensureChromium(
    pick,
    hostChromiumEnv((l) => err(yellow(l))),
  );
  const suites = await loadSuites();
  const parts: Results[] = [];
  const secrets: SecretEntry[] = [];
  const stop = interruptible();
  try {
    for (const name of pick) {
      const target = await loadTarget(name);
      const running = await target.start({ faults: [] });
      try {
        err(bold(`demo: ${name} reference target at ${running.url}`));
        const profile = loadProfile(join(ROOT, "profiles", "demo", `${name}.yaml`), suites, {
          ...process.env,
          ...running.env,
        });
        const { results, redactor } = await runSuites({
          profile,
          suites,
          only: [name],
          notCertifiable: ["demo run against idconform's own reference target"],
          signal: stop.signal,
          halt: stop.halt,
        });
        parts.push(redactor.deep(results));
        secrets.push(...redactor.entries());
      } finally {
        await running.close();
      }
      if (stop.signal.aborted) break;
    }
    if (parts.length === 0) return 3;
    // One suite's run stands as it is; several are joined into one run named "demo".
    const joined = joinSuiteRuns(parts, { id: makeRunId(["demo"]), name: "demo" });
    const dir = values.out ? resolve(values.out) : resolve("reports", joined.run.id);
    // Every secret any part's profile or target handed over is redacted from the joined report.
    const written = writeReports(joined, dir, new Redactor(secrets));
    printSummary(written.results, written);
    err(`open it: file://${resolve(written.html)}  (${relative(process.cwd(), written.html)})`);
    return written.results.outcome.exitCode;
  } finally {
    stop.dispose();
    await closeAgents();
  }
}
