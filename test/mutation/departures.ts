import type { CheckResult } from "../../src/engine/check.js";

/**
 * What a check's result shows that the clean target never shows: empty when it is clean.
 * `cleanSkips`: requirements the check leaves skipped against the clean target with this profile.
 */
export function departures(r: CheckResult, cleanSkips: readonly string[] = []): string[] {
  const out = Object.entries(r.requirements)
    .filter(([id, o]) => o !== "met" && !(o === "skipped" && cleanSkips.includes(id)))
    .map(([id, o]) => `${id}: ${o}: ${r.findings.find((f) => f.requirements.includes(id))?.message ?? ""}`);
  for (const o of r.observations ?? []) {
    if (o.violations > 0) out.push(`observer ${o.observer}: ${o.first?.message ?? "violated"}`);
    if (o.error !== undefined) out.push(`observer ${o.observer}: ${o.error}`);
  }
  return out;
}
