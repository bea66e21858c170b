import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { VciProfile } from "../profile.js";
import { body, isJsonType, isObject, said, Vci, type Ctx } from "../client.js";
import { TAG } from "../observers.js";

/** Characters of each value looked at: enough for any honest nonce, bounded against a hostile one. */
const MAX_LOOKED_AT = 512;

/**
 * Patterns that make nonces guessable: repeats, a counter or clock (values that read as
 * increasing numbers, or numbers near the current time), and too little that changes from
 * one value to the next: the positions that vary, times the bits of the alphabet seen, must
 * reach 64. A structured nonce (a JWT with a fixed header) passes when its varying part is
 * large enough. Linear in the values' size.
 */
export function noncePatterns(all: readonly string[], now = Date.now()): string[] {
  const values = all.map((v) => v.slice(0, MAX_LOOKED_AT));
  const out: string[] = [];
  const distinct = new Set(all).size;
  if (distinct !== all.length) out.push(`${all.length - distinct} repeated value(s)`);
  const digits = values.map((v) => v.replace(/\D/g, ""));
  if (values.length > 1 && digits.every((d) => d.length > 0 && d.length <= 15)) {
    const nums = digits.map(Number);
    const shape = (v: string): string => v.replace(/\d/g, "");
    if (
      nums.every((n, i) => i === 0 || n > nums[i - 1]!) &&
      values.every((v) => shape(v) === shape(values[0]!))
    )
      out.push("the values read as an increasing number (a counter or a clock)");
    const near = nums.filter(
      (n) => Math.abs(n - now) < 86_400_000 || Math.abs(n - now / 1000) < 86_400,
    ).length;
    if (near > values.length / 2) out.push("the values read as timestamps near the current time");
  }
  if (values.length > 1) {
    const minLen = Math.min(...values.map((v) => v.length));
    const maxLen = Math.max(...values.map((v) => v.length));
    let varying = maxLen - minLen;
    for (let i = 0; i < minLen; i++) if (values.some((v) => v[i] !== values[0]![i])) varying++;
    const alphabet = new Set<string>();
    for (const v of values) for (const ch of v) alphabet.add(ch);
    const bits = Math.floor(varying * Math.log2(Math.max(alphabet.size, 2)));
    if (bits < 64)
      out.push(
        `only about ${bits} bits change between values (${varying} varying positions, an alphabet of ${alphabet.size})`,
      );
  }
  return out;
}

/** specs/000 Endpoints: Nonce Endpoint; Resources: Nonce Response. */
export const nonceChecks = [
  defineCheck<VciProfile>({
    id: "vci.nonce",
    title: "an empty POST to the nonce endpoint, with no token, answers 2xx JSON with c_nonce",
    requirements: ["VCI-NONCE-RESPONSE"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const url = await v.endpoint("nonce_endpoint");
      const res = await c.http.post(url, { body: "", label: "nonce", tags: [TAG.nonce] });
      c.require(
        "VCI-NONCE-RESPONSE",
        res.status >= 200 && res.status < 300 && isJsonType(res) && typeof body(res).c_nonce === "string",
        {
          expected: "2xx application/json with a c_nonce string",
          actual: `${said(res)} (${res.header("content-type") ?? "no Content-Type"})`,
          kind:
            res.status < 200 || res.status > 299
              ? "wrong-status"
              : !isObject(res.json)
                ? "malformed"
                : body(res).c_nonce === undefined
                  ? "missing"
                  : typeof body(res).c_nonce !== "string"
                    ? "malformed"
                    : res.header("content-type") === undefined
                      ? "missing"
                      : "wrong-value",
        },
      );
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.nonce.unpredictable",
    title:
      "fresh nonces are all distinct, read as no counter or clock, and change in at least 64 bits from one to the next",
    requirements: ["VCI-NONCE-UNPREDICTABLE"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const url = await v.endpoint("nonce_endpoint");
      const values: string[] = [];
      for (let i = 0; i < c.profile.nonceSamples; i++) {
        const res = await c.http.post(url, { body: "", label: `nonce ${i + 1}`, tags: [TAG.nonce] });
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
                .map((x) => quote(x.slice(0, 40)))
                .join(", ")})`
            : "no pattern found",
      });
    },
  }),
];
