import { shownFinding } from "./findings.js";
import { createHash } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RequirementResult, Results } from "./results.js";
import { mustCoverageLine, mustOf, WHY_TEXT } from "./must-coverage.js";

type AllureStatus = "passed" | "failed" | "broken" | "skipped" | "unknown";

/**
 * Allure has no warning status: a warned SHOULD becomes `unknown` with a "warning" tag
 * (neither passed nor failed); `error` becomes `broken`, so harness trouble never reads as a
 * failure of the target.
 */
const STATUS: Record<RequirementResult["verdict"], AllureStatus> = {
  pass: "passed",
  fail: "failed",
  warn: "unknown",
  error: "broken",
  skip: "skipped",
};

const uuid = (s: string): string => {
  const h = createHash("sha256").update(s).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};

/** Writes allure-results/ from results.json, one Allure test result per requirement. */
export function writeAllureResults(r: Results, dir: string): void {
  // A re-render replaces the results; stale files would mix two runs in one Allure report.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const start = Date.parse(r.run.startedAt);
  const checks = new Map(r.checks.map((c) => [`${c.suite}/${c.check}`, c]));
  const must = mustOf(r);
  const notExercised = new Map(must.notExercised.map((x) => [x.id, x]));
  for (const q of r.requirements) {
    const ne = notExercised.get(q.id);
    const id = uuid(`${r.run.id}/${q.id}`);
    const attachments: { name: string; source: string; type: string }[] = [];
    if (q.verdict !== "pass") {
      const exchanges = q.findings.flatMap((f) =>
        (checks.get(`${q.suite}/${f.check}`)?.exchanges ?? []).filter((e) => f.exchanges.includes(e.id)),
      );
      if (exchanges.length > 0) {
        const source = `${id}-evidence-attachment.json`;
        writeFileSync(join(dir, source), JSON.stringify(exchanges, null, 2));
        attachments.push({ name: "HTTP exchanges", source, type: "application/json" });
        const curl = `${id}-curl-attachment.txt`;
        writeFileSync(join(dir, curl), exchanges.map((e) => e.curl).join("\n\n"));
        attachments.push({ name: "curl", source: curl, type: "text/plain" });
      }
    }
    const main = shownFinding(q);
    const kind = main?.outcome === "violated" ? main.kind : undefined;
    const message = (main ? [main, ...q.findings.filter((f) => f !== main)] : q.findings)
      .map(
        (f) =>
          `${f.outcome === "violated" && f.kind !== undefined ? `[${f.kind}] ` : ""}${f.message}${f.expected !== undefined ? ` — expected: ${f.expected}` : ""}${f.actual !== undefined ? `; actual: ${f.actual}` : ""}`,
      )
      .join("\n");
    const status = STATUS[q.verdict];
    const result = {
      uuid: id,
      historyId: createHash("md5").update(`${q.suite}/${q.id}`).digest("hex"),
      testCaseId: createHash("md5").update(q.id).digest("hex"),
      name: `${q.id}: ${q.text}`,
      fullName: `${q.suite}.${q.id}`,
      status,
      statusDetails: {
        message: q.known
          ? `KNOWN FAILURE (${q.known.reason})${q.known.stale ? ": now passes, remove it from knownFailures" : ""}\n${message}`
          : q.verdict === "warn"
            ? `WARNING: SHOULD not met\n${message}`
            : ne
              ? `NOT EXERCISED (${ne.why.map((k) => `${k}: ${WHY_TEXT[k]}`).join("; ")}): an applicable MUST, so the run is not certifiable\n${message}`
              : message,
      },
      stage: "finished",
      description: `${q.level} · ${q.source}`,
      labels: [
        { name: "suite", value: q.suite },
        { name: "parentSuite", value: r.run.profile.name },
        { name: "feature", value: q.source },
        { name: "tag", value: q.level },
        ...(q.verdict === "warn" ? [{ name: "tag", value: "warning" }] : []),
        ...(q.known ? [{ name: "tag", value: "known-failure" }] : []),
        ...(ne ? [{ name: "tag", value: "not-exercised" }] : []),
        ...(kind !== undefined && q.verdict !== "pass" ? [{ name: "tag", value: kind }] : []),
        ...(main?.setup ? [{ name: "tag", value: "setup" }] : []),
        {
          name: "severity",
          value: q.level === "MUST" ? "critical" : q.level === "SHOULD" ? "normal" : "trivial",
        },
        { name: "framework", value: "idconform" },
        { name: "AS_ID", value: q.id },
      ],
      parameters: [{ name: "target", value: r.run.suites.find((s) => s.name === q.suite)?.target ?? "" }],
      links: [],
      attachments,
      steps: q.checks.map((c) => ({
        name: `check ${c.check}: ${c.outcome}`,
        status:
          c.outcome === "met"
            ? "passed"
            : c.outcome === "violated"
              ? "failed"
              : c.outcome === "skipped"
                ? "skipped"
                : "broken",
        stage: "finished",
      })),
      start,
      stop: start + r.run.durationMs,
    };
    writeFileSync(join(dir, `${id}-result.json`), JSON.stringify(result));
  }
  writeFileSync(
    join(dir, "environment.properties"),
    [
      `idconform=${r.run.harness.version}`,
      `profile=${r.run.profile.name}`,
      `seed=${r.run.seed}`,
      `certifiable=${r.run.certifiable}`,
      `mustCoverage=${mustCoverageLine(must)}`,
      `mustNotExercised=${must.notExercised.map((x) => x.id).join(" ")}`,
    ]
      .concat(r.run.suites.map((s) => `target.${s.name}=${s.target}`))
      .join("\n"),
  );
}
