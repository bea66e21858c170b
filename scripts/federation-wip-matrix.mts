// WIP (issue 13), until the federation fault matrix test exists: runs the clean reference target
// and each fault in process, and prints where the verdicts of the requirements the suite decides
// today differ from the fault declarations. Usage, from the repository root:
//   npx tsx scripts/federation-wip-matrix.mts [fault-id prefix] [fault ids...]
import { runSuiteInProcess } from "../src/engine/in-process.js";
import type { FaultDef } from "../src/engine/target.js";
const [prefix = "", ...only] = process.argv.slice(2);
const { faults } = (await import("../targets/federation/faults.js")) as { faults: readonly FaultDef[] };
const clean = await runSuiteInProcess({ suite: "federation", faults: [] });
const decided = new Set(clean.results.requirements.map((q) => q.id));
const cv = new Map(clean.results.requirements.map((q) => [q.id, q.verdict]));
console.log(
  "clean not pass:",
  clean.results.requirements
    .filter((q) => q.verdict !== "pass" && q.verdict !== "skip")
    .map((q) => q.id)
    .join(", ") || "none",
);
const list = faults.filter(
  (f) =>
    (only.length ? only.includes(f.id) : f.id.startsWith(prefix)) && f.breaks.some((b) => decided.has(b)),
);
for (const f of list) {
  const r = await runSuiteInProcess({ suite: "federation", faults: [f.id] });
  const got = new Map(r.results.requirements.map((q) => [q.id, q.verdict]));
  const out: string[] = [];
  for (const id of decided) {
    const want = f.breaks.includes(id);
    const v = got.get(id);
    const bad = v === "fail" || v === "warn";
    if (want && !bad) out.push(`${id} expected fail, got ${v}`);
    const skipOk = f.skips === "rest" || (f.skips ?? []).includes(id);
    if (!want && v !== cv.get(id) && !(skipOk && v === "skip")) out.push(`${id} ${cv.get(id)} -> ${v}`);
  }
  console.log(out.length ? "MISMATCH" : "ok", f.id, ...out.map((x) => "\n   " + x));
}
process.exit(0);
