#!/usr/bin/env node
// `npm run mutation -- --suite <s>`: StrykerJS mutates the protocol files of a suite's reference
// target and runs the suite's checks against each mutant (test/mutation/suite.mutation.ts);
// prints the mutation score and writes reports/mutation/<s>/mutation.{html,json}.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { mutableSuites, strykerOptions } from "../test/mutation/stryker-options.mjs";

const usage = `usage: npm run mutation -- --suite <${mutableSuites().join("|")}> [--files <path,...>] [--concurrency N] [--force]
  --files        mutate only these files of the target (comma-separated, relative to the project)
  --concurrency  Stryker workers (default 2)
  --report-dir   where the report, the incremental file and the sandboxes go (default reports/mutation/<s>)
  --force        test every mutant again, not only those the last run did not decide (incremental)`;

let args;
try {
  args = parseArgs({
    options: {
      suite: { type: "string" },
      files: { type: "string" },
      concurrency: { type: "string" },
      force: { type: "boolean", default: false },
      "report-dir": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  }).values;
} catch (e) {
  console.error(`${e.message}\n${usage}`);
  process.exit(2);
}
if (args.help) {
  console.log(usage);
  process.exit(0);
}
if (!args.suite || !mutableSuites().includes(args.suite)) {
  console.error(`${args.suite ? `unknown suite "${args.suite}"` : "--suite is required"}\n${usage}`);
  process.exit(2);
}
const concurrency = args.concurrency === undefined ? undefined : Number(args.concurrency);
if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0)) {
  console.error(`--concurrency takes a whole number above 0\n${usage}`);
  process.exit(2);
}

process.env.IDC_MUTATION_SUITE = args.suite;
const { Stryker } = await import("@stryker-mutator/core");
const options = strykerOptions(args.suite, {
  ...(args.files ? { files: args.files.split(",").map((f) => f.trim()) } : {}),
  ...(concurrency ? { concurrency } : {}),
  force: args.force,
  ...(args["report-dir"] ? { reportDir: args["report-dir"] } : {}),
});
const started = Date.now();
const results = await new Stryker(options).runMutationTest();

const minutes = (Date.now() - started) / 60000;
const count = (...s) => results.filter((m) => s.includes(m.status)).length;
const killed = count("Killed", "Timeout");
const survived = count("Survived");
const noCoverage = count("NoCoverage");
const valid = killed + survived + noCoverage;
const score = valid === 0 ? 0 : (100 * killed) / valid;
console.log(
  `\nmutation ${args.suite}: score ${score.toFixed(1)} % (${killed} killed or timed out, ${survived} survived, ${noCoverage} not covered; ${count("Ignored")} ignored (fault switches, display text, disabled with a reason); ${count("CompileError", "RuntimeError")} errors) in ${Math.round(minutes)} min`,
);
// What `npm run bench` shows of the last run (a run of a few files is marked as such).
writeFileSync(
  join(dirname(options.jsonReporter.fileName), "summary.json"),
  `${JSON.stringify(
    {
      suite: args.suite,
      files: args.files ? options.mutate : "all protocol files",
      score: Number(score.toFixed(1)),
      killed,
      survived,
      noCoverage,
      ignored: count("Ignored"),
      errors: count("CompileError", "RuntimeError"),
      minutes: Number(minutes.toFixed(1)),
      finishedAt: new Date().toISOString(),
    },
    null,
    2,
  )}\n`,
);
console.log(`report: ${options.htmlReporter.fileName}`);
