import { describe, expect, it } from "vitest";
import type { FaultDef } from "../../src/engine/target.js";
import type { Results } from "../../src/report/results.js";
import { runDemoProfile, verdicts } from "./cli.js";
import { runSuiteInProcess } from "../../src/engine/in-process.js";

/** requirement id -> verdict, and for a skip the reasons given (kind and message). */
export type VerdictVector = Record<string, { verdict: string; skipped?: string }>;

/** The whole verdict vector of a run: every requirement's verdict, skips with their reasons. */
export function verdictVector(r: Results | undefined): VerdictVector {
  const out: VerdictVector = {};
  for (const q of r?.requirements ?? []) {
    const reasons =
      q.verdict === "skip"
        ? [
            ...new Set(
              q.findings
                .filter((f) => f.outcome === "skipped")
                .map((f) => `${f.skipKind ?? "other"}: ${f.message}`),
            ),
          ]
            .sort()
            .join(" | ")
        : undefined;
    out[q.id] = reasons === undefined ? { verdict: q.verdict } : { verdict: q.verdict, skipped: reasons };
  }
  return out;
}

/**
 * Honesty rule 8: a faulted run may differ from the clean run only where the fault says. Its
 * `breaks` fail (or warn), its `skips` become skips, its `undecidable` become errors; every
 * other requirement keeps the clean verdict, and a skip keeps its reason. Returns what differs.
 */
export function unexplained(clean: VerdictVector, faulted: VerdictVector, fault: FaultDef): string[] {
  const out: string[] = [];
  const breaks = new Set(fault.breaks);
  const rest = fault.skips === "rest";
  const skips = new Set(rest ? [] : (fault.skips ?? []));
  const errors = new Set(fault.undecidable ?? []);
  for (const id of new Set([...Object.keys(clean), ...Object.keys(faulted)])) {
    const c = clean[id];
    const f = faulted[id];
    if (!f || !c) {
      out.push(`${id}: ${c ? "missing from the faulted run" : "not in the clean run"}`);
      continue;
    }
    const want = breaks.has(id)
      ? ["fail", "warn"]
      : skips.has(id)
        ? ["skip"]
        : rest && !errors.has(id)
          ? ["skip", c.verdict]
          : errors.has(id)
            ? ["error"]
            : [c.verdict];
    if (!want.includes(f.verdict)) {
      out.push(`${id}: ${f.verdict}${f.skipped ? ` (${f.skipped})` : ""}, expected ${want.join(" or ")}`);
    } else if (!rest && !breaks.has(id) && !skips.has(id) && !errors.has(id) && c.skipped !== f.skipped) {
      out.push(`${id}: skip reason changed from "${c.skipped}" to "${f.skipped}"`);
    }
  }
  return out.sort();
}

/**
 * Honesty rules 1-3 and 8 for a suite: the clean reference target passes every requirement of
 * the demo profile, run as a user runs it (`idconform run`); each fault changes the verdict
 * vector exactly where it says (fails its `breaks`, skips its `skips`) and leaves none
 * undecidable. Faulted runs go through the in-process runner (the same check runner, without
 * vitest workers), which makes each of them cheap; the clean run is also made that way, and
 * both clean vectors must agree, so the cheap path is held to the real one. `sweeps`: the suite
 * deletes what it made, so every run must leave nothing.
 */
export function describeFaultMatrix(o: {
  title: string;
  suite: string;
  faults: readonly FaultDef[];
  minRequirements: number;
  sweeps: boolean;
  /**
   * Faults that only a target in another role shows (an Intermediate, an endpoint behind client
   * authentication) run with that variant profile (a file), against the same reference target;
   * the clean target must pass every requirement with each variant too.
   */
  variants?: Readonly<
    Record<
      string,
      {
        profileFile: string;
        faults: readonly string[];
        /** Options for the reference target's start (`members`, say), for the clean and faulted runs. */
        targetOptions?: Readonly<Record<string, unknown>>;
      }
    >
  >;
}): void {
  const variantOf = (id: string): string | undefined =>
    Object.entries(o.variants ?? {}).find(([, v]) => v.faults.includes(id))?.[0];
  const cleanRuns = new Map<string, Promise<VerdictVector>>();
  const profileFile = (variant: string | undefined): string | undefined =>
    variant === undefined ? undefined : o.variants?.[variant]?.profileFile;
  const targetOptions = (
    variant: string | undefined,
  ): { targetOptions?: Readonly<Record<string, unknown>> } => {
    const t = variant === undefined ? undefined : o.variants?.[variant]?.targetOptions;
    return t === undefined ? {} : { targetOptions: t };
  };
  const cleanRun = (variant?: string): Promise<VerdictVector> => {
    const key = variant ?? "";
    let run = cleanRuns.get(key);
    if (run === undefined) {
      const file = profileFile(variant);
      run = runSuiteInProcess({
        suite: o.suite,
        ...(file !== undefined ? { profileFile: file } : {}),
        ...targetOptions(variant),
      }).then((r) => verdictVector(r.results));
      cleanRuns.set(key, run);
    }
    return run;
  };

  describe(o.title, () => {
    it(`the clean ${o.suite} reference target passes every requirement${o.sweeps ? ", and leaves nothing behind" : ""}`, async () => {
      const { cli, results } = await runDemoProfile(o.suite, []);
      expect(cli.code, cli.stderr).toBe(0);
      const v = verdicts(results);
      // With variants, a requirement of another role (an Intermediate's, client authentication's)
      // is skipped here and passes with its variant: the last test below holds the union to it.
      const notPass = Object.entries(v).filter(([, x]) => x !== "pass" && !(o.variants && x === "skip"));
      expect(notPass, cli.stderr).toEqual([]);
      expect(Object.keys(v).length).toBeGreaterThan(o.minRequirements);
      if (o.sweeps) expect(results?.cleanup).toEqual([]);
      // The in-process path the faulted runs take decides the clean target the same way.
      expect(await cleanRun()).toEqual(verdictVector(results));
    });

    for (const [name, v] of Object.entries(o.variants ?? {})) {
      it(`the clean ${o.suite} reference target passes every requirement with the ${name} profile`, async () => {
        const vector = await cleanRun(name);
        const notPass = Object.entries(vector).filter(
          ([, x]) => x.verdict !== "pass" && x.verdict !== "skip",
        );
        expect(notPass, v.profileFile).toEqual([]);
      });
    }
    if (o.variants) {
      it(`every requirement passes with the demo profile or one of its variants`, async () => {
        const runs = await Promise.all([undefined, ...Object.keys(o.variants ?? {})].map((n) => cleanRun(n)));
        const ids = new Set(runs.flatMap((r) => Object.keys(r)));
        const never = [...ids].filter((id) => !runs.some((r) => r[id]?.verdict === "pass"));
        expect(never).toEqual([]);
      });
    }

    for (const fault of o.faults) {
      const what = [
        fault.breaks.length > 0
          ? `fails exactly ${fault.breaks.join(", ")}`
          : "fails nothing (allowed behaviour)",
        fault.skips === "rest"
          ? "and skips every other requirement"
          : fault.skips && fault.skips.length > 0
            ? `and skips ${fault.skips.join(", ")}`
            : "",
      ];
      const variant = variantOf(fault.id);
      const file = profileFile(variant);
      it(`fault ${fault.id} ${what.join(" ").trim()}${variant ? ` (${variant} profile)` : ""}`, async () => {
        const run = await runSuiteInProcess({
          suite: o.suite,
          faults: [fault.id],
          ...(file !== undefined ? { profileFile: file } : {}),
          ...targetOptions(variant),
        });
        const differences = unexplained(await cleanRun(variant), verdictVector(run.results), fault);
        expect(differences, explain(run.results)).toEqual([]);
        if (o.sweeps) expect(run.leftovers).toEqual([]);
      });
    }
  });
}

/** The findings of a run that are not passes, for a failing matrix test's message. */
function explain(r: Results): string {
  return r.requirements
    .filter((q) => q.verdict !== "pass")
    .map((q) => `${q.id} ${q.verdict}: ${q.findings.map((f) => f.message).join(" / ")}`)
    .join("\n");
}
