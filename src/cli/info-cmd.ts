import { HarnessError } from "../engine/errors.js";
import { loadSuites } from "../engine/discovery.js";
import { parse } from "./args.js";

/** Lists the requirement catalogs, with the checks that decide each requirement. */
export async function requirementsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { suite: { type: "string", multiple: true }, json: { type: "boolean" } },
    "idconform requirements [--suite s] [--json]",
  );
  if (positionals.length > 0) throw new HarnessError("IDC_USAGE", `unexpected ${positionals.join(" ")}`);
  const suites = await loadSuites(values.suite);
  const rows = suites.flatMap((s) =>
    s.catalog.requirements.map((r) => ({
      suite: s.name,
      ...r,
      checks: s.checks.filter((c) => c.requirements.includes(r.id)).map((c) => c.id),
    })),
  );
  if (values.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  for (const s of suites) {
    const mine = rows.filter((r) => r.suite === s.name);
    process.stdout.write(`\n${s.name} — ${s.title} (${s.document}): ${mine.length} requirements\n`);
    for (const r of mine) {
      process.stdout.write(
        `  ${r.id.padEnd(34)} ${r.level.padEnd(6)} ${r.text}\n  ${"".padEnd(34)} ${r.source}${r.checks.length === 0 ? " · no check decides it" : ""}\n`,
      );
    }
  }
  return 0;
}
