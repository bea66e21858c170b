import { parseJsonBounded } from "../../src/http/json-bounds.js";
import { sha256b64url, fromB64url } from "./b64.js";

/** One disclosure of an SD-JWT, with the digest the issuer JWT must hold for it. */
export interface Disclosure {
  salt: string;
  /** The claim name; empty for an array-element disclosure (two-element form). */
  name: string;
  value: unknown;
  digest: string;
}

/**
 * Decodes one disclosure (SD-JWT §4.2.1, §4.2.2): base64url of a JSON array `[salt, name,
 * value]`, or `[salt, value]` for an array element. Returns a problem string instead when the
 * issuer got it wrong.
 */
export function readDisclosure(encoded: string, index: number): Disclosure | string {
  const where = `disclosure ${index}`;
  const bytes = fromB64url(encoded);
  if (!bytes) return `${where} is not base64url`;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return `${where} is not JSON`;
  }
  const p = parseJsonBounded(text);
  if (!p.ok) return `${where} is ${p.error.startsWith("not read") ? p.error : "not JSON"}`;
  const arr = p.value;
  if (!Array.isArray(arr) || (arr.length !== 2 && arr.length !== 3))
    return `${where} is not a JSON array of 2 or 3 elements`;
  const [salt, second, third] = arr as unknown[];
  if (typeof salt !== "string") return `${where} has a salt that is not a string`;
  const digest = sha256b64url(encoded);
  if (arr.length === 2) return { salt, name: "", value: second, digest };
  if (typeof second !== "string") return `${where} has a claim name that is not a string`;
  if (second === "_sd" || second === "...") return `${where} discloses the reserved name ${second}`;
  return { salt, name: second, value: third, digest };
}

/**
 * Every digest an SD-JWT payload commits to: the `_sd` arrays at any depth and the `{"...":
 * digest}` array entries (SD-JWT §4.2.4), also inside disclosed values, since a disclosure
 * may itself carry nested digests. Bounded by depth, so a hostile payload cannot recurse forever.
 */
export function committedDigests(payload: unknown, disclosed: readonly unknown[]): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, depth: number): void => {
    if (depth > 32 || typeof v !== "object" || v === null) return;
    if (Array.isArray(v)) {
      for (const e of v) {
        const ref = typeof e === "object" && e !== null ? (e as Record<string, unknown>)["..."] : undefined;
        if (typeof ref === "string") out.add(ref);
        walk(e, depth + 1);
      }
      return;
    }
    for (const [k, e] of Object.entries(v)) {
      if (k === "_sd" && Array.isArray(e)) for (const d of e) if (typeof d === "string") out.add(d);
      walk(e, depth + 1);
    }
  };
  walk(payload, 0);
  for (const v of disclosed) walk(v, 0);
  return out;
}
