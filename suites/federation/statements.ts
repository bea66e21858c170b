import { compactVerify, importJWK, type JWK } from "jose";
import { quote } from "../../src/engine/quote.js";

/** A JSON object. */
export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

/** A compact JWS read without trusting it: its header and payload, or why it cannot be read. */
export type Decoded =
  | { readonly ok: true; readonly header: Json; readonly payload: Json }
  | { readonly ok: false; readonly why: string };

/** Longest statement read: a federation statement is a few kilobytes, a collection a few megabytes. */
const MAX_TOKEN = 1_000_000;

/** Splits and decodes a compact JWS (three base64url parts, a JSON object header and payload). */
export function decodeStatement(text: string): Decoded {
  const token = text.trim();
  if (token.length > MAX_TOKEN) return { ok: false, why: `a body of ${token.length} characters` };
  const parts = token.split(".");
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p)))
    return { ok: false, why: `not a compact JWS: ${quote(token, 80)}` };
  const part = (s: string, what: string): Json | string => {
    try {
      const v = JSON.parse(Buffer.from(s, "base64url").toString("utf8")) as unknown;
      return isObject(v) ? v : `the ${what} is ${quote(v, 60)}, not a JSON object`;
    } catch {
      return `the ${what} is not base64url-encoded JSON`;
    }
  };
  const header = part(parts[0]!, "header");
  if (typeof header === "string") return { ok: false, why: header };
  const payload = part(parts[1]!, "payload");
  if (typeof payload === "string") return { ok: false, why: payload };
  return { ok: true, header, payload };
}

/** The keys of a JWK Set member (`jwks`), and what is wrong with the set. */
export function keysOf(jwks: unknown): { keys: JWK[]; problems: string[] } {
  if (!isObject(jwks) || !Array.isArray(jwks.keys))
    return { keys: [], problems: [`jwks ${quote(jwks ?? null, 80)} is no JWK Set`] };
  const keys = jwks.keys.filter(isObject) as JWK[];
  const problems: string[] = [];
  if (keys.length === 0) problems.push("jwks holds no key");
  if (keys.length !== jwks.keys.length) problems.push("jwks holds a member that is not a JWK object");
  const kids = keys.map((k) => k.kid);
  const missing = kids.filter((k) => typeof k !== "string" || k === "").length;
  if (missing > 0) problems.push(`${missing} key(s) without a kid`);
  const dup = kids.filter((k, i) => typeof k === "string" && kids.indexOf(k) !== i);
  if (dup.length > 0) problems.push(`kid ${quote(dup[0])} shared by several keys`);
  const priv = keys.filter((k) => k.d !== undefined || k.p !== undefined || k.k !== undefined);
  if (priv.length > 0) problems.push(`${priv.length} key(s) with private or symmetric members`);
  return { keys, problems };
}

/**
 * Verifies a compact JWS with the key of `keys` its header's `kid` names, for its header's `alg`
 * (never `none`, never an HMAC: federation keys are public keys). A key carried in the token's
 * own header (`jwk`, `x5c`, `jku`) is never used. Undefined when it verifies, else why not.
 */
export async function verifyWith(
  token: string,
  header: Json,
  keys: readonly JWK[],
): Promise<string | undefined> {
  const alg = header.alg;
  if (typeof alg !== "string" || alg === "" || alg === "none") return `alg ${quote(alg ?? null)}`;
  if (/^HS/.test(alg)) return `alg ${alg}: a MAC, not a signature with a published key`;
  if (typeof header.kid !== "string") return "no kid in the header";
  const key = keys.find((k) => k.kid === header.kid);
  if (!key) return `kid ${quote(header.kid)} names no key of the Entity Configuration's jwks`;
  try {
    await compactVerify(token.trim(), await importJWK({ ...key, alg }, alg), { algorithms: [alg] });
    return undefined;
  } catch (e) {
    return `the signature does not verify with key ${quote(header.kid)} (${e instanceof Error ? e.message : String(e)})`;
  }
}

/** Seconds since the epoch, and the leeway time claims get. */
export const now = (): number => Math.floor(Date.now() / 1000);
export const LEEWAY = 60;

/** What is wrong with `iat` and `exp` of a statement (`iat` not in the future, `exp` not past, `exp` after `iat`). */
export function timeProblems(p: Json, o: { expRequired: boolean } = { expRequired: true }): string[] {
  const t = now();
  const out: string[] = [];
  if (typeof p.iat !== "number") out.push(`iat ${quote(p.iat ?? null)} is not a number`);
  else if (p.iat > t + LEEWAY) out.push(`iat ${p.iat} is ${p.iat - t} s in the future`);
  if (p.exp === undefined && !o.expRequired) return out;
  if (typeof p.exp !== "number") out.push(`exp ${quote(p.exp ?? null)} is not a number`);
  else {
    if (p.exp < t - LEEWAY) out.push(`exp ${p.exp} is ${t - p.exp} s past`);
    if (typeof p.iat === "number" && p.exp <= p.iat) out.push(`exp ${p.exp} is not after iat ${p.iat}`);
  }
  return out;
}

/** What is wrong with an endpoint URL (specs/001 Rules 1: https, no fragment), undefined when nothing. */
export function endpointUrlProblem(v: unknown, allowPlainHttp: boolean): string | undefined {
  if (typeof v !== "string") return `${quote(v ?? null, 80)} is not a string`;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return `${quote(v, 120)} is not an absolute URL`;
  }
  if (u.protocol !== "https:" && !(allowPlainHttp && u.protocol === "http:"))
    return `${quote(v, 120)} is not https`;
  if (v.includes("#")) return `${quote(v, 120)} has a fragment`;
  return undefined;
}

/** What is wrong with a trust_marks claim (an array of {trust_mark_type, trust_mark JWT}), undefined when nothing. */
export function trustMarkProblems(marks: unknown): string | undefined {
  if (!Array.isArray(marks)) return `trust_marks ${quote(marks, 120)} is not an array`;
  const bad = marks.filter(
    (m) =>
      !isObject(m) ||
      typeof m.trust_mark_type !== "string" ||
      typeof m.trust_mark !== "string" ||
      !decodeStatement(m.trust_mark).ok,
  );
  return bad.length === 0
    ? undefined
    : `${bad.length} element(s) not so, the first ${quote(bad[0] ?? null, 160)}`;
}

/**
 * A statement's claims as comparable text, without the times and id a statement minted per
 * request may change (iat, exp, jti): two statements about the same thing compare equal.
 */
export function statementClaims(p: Json): string {
  const { iat: _iat, exp: _exp, jti: _jti, ...rest } = p;
  return JSON.stringify(
    Object.keys(rest)
      .sort()
      .map((k) => [k, rest[k]]),
  );
}
