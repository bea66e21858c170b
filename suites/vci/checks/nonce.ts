import { defineCheck } from "../../../src/engine/check.js";
import type { VciProfile } from "../profile.js";
import { body, isJsonType, noStore, said, Vci, type Ctx } from "../client.js";

/** Longest prefix all values share. */
function commonPrefix(values: readonly string[]): string {
  let p = values[0] ?? "";
  for (const v of values) while (!v.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/**
 * Patterns that make nonces guessable: repeats, a counter or clock (values that read as
 * increasing numbers, or numbers near the current time), a long shared prefix, positions
 * that never change, and a short alphabet with short values (too little room for chance).
 */
export function noncePatterns(values: readonly string[], now = Date.now()): string[] {
  const out: string[] = [];
  if (new Set(values).size !== values.length)
    out.push(`${values.length - new Set(values).size} repeated value(s)`);
  const digits = values.map((v) => v.replace(/\D/g, ""));
  if (digits.every((d) => d.length > 0 && d.length <= 15)) {
    const nums = digits.map(Number);
    const increasing = nums.every((n, i) => i === 0 || n > nums[i - 1]!);
    if (increasing && values.every((v, i) => v.replace(/\d/g, "") === values[0]!.replace(/\d/g, "") || i < 0))
      out.push("the values read as an increasing number (a counter or a clock)");
    const near = nums.filter(
      (n) => Math.abs(n - now) < 86_400_000 || Math.abs(n - now / 1000) < 86_400,
    ).length;
    if (near > values.length / 2) out.push("the values read as timestamps near the current time");
  }
  const minLen = Math.min(...values.map((v) => v.length));
  const prefix = commonPrefix(values);
  if (values.length > 1 && prefix.length >= Math.max(4, minLen / 2))
    out.push(`every value starts with ${JSON.stringify(prefix)}`);
  if (values.length >= 8) {
    const fixed = [...Array(minLen).keys()].filter((i) => values.every((v) => v[i] === values[0]![i])).length;
    if (fixed > minLen / 2) out.push(`${fixed} of the first ${minLen} positions never change`);
  }
  const alphabet = new Set(values.join(""));
  const bits = minLen * Math.log2(Math.max(alphabet.size, 2));
  if (bits < 64)
    out.push(
      `at most ${Math.floor(bits)} bits of room (${minLen} characters from an alphabet of ${alphabet.size})`,
    );
  return out;
}

/** specs/000 Endpoints: Nonce Endpoint; Resources: Nonce Response. */
export const nonceChecks = [
  defineCheck<VciProfile>({
    id: "vci.nonce",
    title:
      "an empty POST to the nonce endpoint, with no token, answers 2xx JSON with c_nonce and Cache-Control: no-store",
    requirements: ["VCI-NONCE-RESPONSE", "VCI-NONCE-NO-STORE"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const url = await v.endpoint("nonce_endpoint", "VCI-NONCE-RESPONSE");
      const res = await c.http.post(url, { body: "", label: "nonce" });
      c.require(
        "VCI-NONCE-RESPONSE",
        res.status >= 200 && res.status < 300 && isJsonType(res) && typeof body(res).c_nonce === "string",
        {
          expected: "2xx application/json with a c_nonce string",
          actual: `${said(res)} (${res.header("content-type") ?? "no Content-Type"})`,
        },
      );
      c.check("VCI-NONCE-NO-STORE", noStore(res), {
        expected: "Cache-Control: no-store",
        actual: res.header("cache-control") ?? "(absent)",
      });
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.nonce.unpredictable",
    title:
      "fresh nonces are all distinct and show no counter, timestamp, shared-prefix or short-alphabet pattern",
    requirements: ["VCI-NONCE-UNPREDICTABLE"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const url = await v.endpoint("nonce_endpoint", "VCI-NONCE-UNPREDICTABLE");
      const values: string[] = [];
      for (let i = 0; i < c.profile.nonceSamples; i++) {
        const res = await c.http.post(url, { body: "", label: `nonce ${i + 1}` });
        const n = body(res).c_nonce;
        if (res.status < 200 || res.status > 299 || typeof n !== "string")
          c.skip(`the nonce endpoint answered ${said(res)}: see VCI-NONCE-RESPONSE`, "dependency");
        values.push(n);
      }
      const found = noncePatterns(values);
      c.check("VCI-NONCE-UNPREDICTABLE", found.length === 0, {
        expected: `${values.length} unpredictable values`,
        actual:
          found.length > 0
            ? `${found.join("; ")} (first values: ${values
                .slice(0, 3)
                .map((x) => JSON.stringify(x.slice(0, 40)))
                .join(", ")})`
            : "no pattern found",
      });
    },
  }),
];
