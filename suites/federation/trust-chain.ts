import type { JWK } from "jose";
import { quote } from "../../src/engine/quote.js";
import { applyPolicy, PolicyError, resolvePolicy, type Metadata, type Policy } from "./policy.js";
import { decodeStatement, isObject, keysOf, LEEWAY, now, verifyWith, type Json } from "./statements.js";

/** Most Entity Statements a Trust Chain is read with (a chain is a handful long). */
export const MAX_CHAIN = 12;

/** A Trust Chain's statements as sent, decoded without trusting them. */
export interface ReadChain {
  readonly tokens: readonly string[];
  readonly headers: readonly Json[];
  readonly payloads: readonly Json[];
}

/** Decodes a `trust_chain` array of compact JWS, or says why it is none. */
export function readChain(v: unknown): ReadChain | string {
  if (!Array.isArray(v)) return `trust_chain ${quote(v ?? null, 80)} is not an array`;
  if (v.length === 0) return "trust_chain is empty";
  if (v.length > MAX_CHAIN) return `trust_chain holds ${v.length} statements (more than ${MAX_CHAIN})`;
  const tokens: string[] = [];
  const headers: Json[] = [];
  const payloads: Json[] = [];
  for (const [i, t] of v.entries()) {
    if (typeof t !== "string") return `trust_chain[${i}] ${quote(t, 60)} is not a string`;
    const d = decodeStatement(t);
    if (!d.ok) return `trust_chain[${i}]: ${d.why}`;
    tokens.push(t);
    headers.push(d.header);
    payloads.push(d.payload);
  }
  return { tokens, headers, payloads };
}

const isEc = (p: Json): boolean => typeof p.iss === "string" && p.iss === p.sub;

/**
 * Validates a Trust Chain for `subject` under `anchor` (OpenID Federation 1.0, Validating a Trust
 * Chain; Trust Chain): every statement is an entity-statement+jwt with a kid, an alg other than
 * none, iss, sub, iat in the past, exp in the future and a jwks; ES[0] is the subject's Entity
 * Configuration (iss = sub = subject) signed with a key of its own jwks; each ES[j] is issued by
 * the subject of ES[j+1] and signed with a key of ES[j+1]'s jwks; the last is the Trust Anchor's
 * Entity Configuration, signed with a key the harness read from the anchor itself
 * (`anchorKeys`). Undefined
 * when valid, else the first reason it is not.
 */
export async function chainProblem(
  chain: ReadChain,
  o: { subject: string; anchor: string; anchorKeys: readonly JWK[] },
): Promise<string | undefined> {
  const { tokens, headers, payloads } = chain;
  const t = now();
  const last = payloads.length - 1;
  for (const [j, p] of payloads.entries()) {
    const h = headers[j]!;
    const at = `trust_chain[${j}]`;
    if (h.typ !== "entity-statement+jwt")
      return `${at} has typ ${quote(h.typ ?? null)}, not entity-statement+jwt`;
    for (const claim of ["iss", "sub"])
      if (typeof p[claim] !== "string") return `${at} has no ${claim} string`;
    if (typeof p.iat !== "number" || p.iat > t + LEEWAY)
      return `${at} has iat ${quote(p.iat ?? null)}, not in the past`;
    if (typeof p.exp !== "number" || p.exp < t - LEEWAY)
      return `${at} has exp ${quote(p.exp ?? null)}, not in the future`;
    if (keysOf(p.jwks).keys.length === 0) return `${at} has no jwks with a key`;
    if (j > 0 && j < last && isEc(p))
      return `${at} is an Entity Configuration (iss = sub ${quote(p.iss)}), not a Subordinate Statement`;
  }
  const first = payloads[0]!;
  if (first.iss !== o.subject || first.sub !== o.subject)
    return `trust_chain[0] has iss ${quote(first.iss ?? null)}, sub ${quote(first.sub ?? null)}: not the Entity Configuration of ${o.subject}`;
  const own = await verifyWith(tokens[0]!, headers[0]!, keysOf(first.jwks).keys);
  if (own !== undefined) return `trust_chain[0] (the subject's Entity Configuration): ${own}`;
  for (let j = 0; j < last; j++) {
    const up = payloads[j + 1]!;
    if (payloads[j]!.iss !== up.sub)
      return `trust_chain[${j}] is issued by ${quote(payloads[j]!.iss)}, but trust_chain[${j + 1}] is about ${quote(up.sub ?? null)}`;
    const why = await verifyWith(tokens[j]!, headers[j]!, keysOf(up.jwks).keys);
    if (why !== undefined)
      return `trust_chain[${j}] does not verify with trust_chain[${j + 1}]'s jwks: ${why}`;
  }
  // Resolve Entity: the chain "ends with the specified Trust Anchor's Entity Configuration".
  const top = payloads[last]!;
  if (top.iss !== o.anchor || top.sub !== o.anchor)
    return `the chain ends with a statement of ${quote(top.iss ?? null)} about ${quote(top.sub ?? null)}, not the Entity Configuration of the Trust Anchor ${o.anchor}`;
  const why = await verifyWith(tokens[last]!, headers[last]!, o.anchorKeys);
  if (why !== undefined) return `trust_chain[${last}] does not verify with the Trust Anchor's keys: ${why}`;
  return undefined;
}

/**
 * Constraints, Max Path Length Constraint: the Intermediates between the issuer of a Subordinate
 * Statement that sets max_path_length and the chain's subject (for ES[j], j - 1) are at most that
 * many; a chain that has more is invalid. Read on a chain `chainProblem` found valid (the
 * statements in order, ES[j] about the issuer of ES[j-1]).
 */
export function pathLengthProblem(payloads: readonly Json[]): string | undefined {
  for (let j = 1; j < payloads.length; j++) {
    const p = payloads[j]!;
    if (isEc(p) || !isObject(p.constraints)) continue;
    const max = p.constraints.max_path_length;
    if (typeof max === "number" && j - 1 > max)
      return `trust_chain[${j}] allows ${max} Intermediates below ${quote(p.sub)}, the chain has ${j - 1}`;
  }
  return undefined;
}

/**
 * The Subordinate Statements of a chain read as ordered (ES[0] the subject's Entity
 * Configuration, then Subordinate Statements, then possibly the anchor's Entity Configuration),
 * or undefined when it is not in that form: the statements its metadata is resolved from.
 */
export function subordinateStatements(chain: ReadChain, subject: string): Json[] | undefined {
  const [first, ...rest] = chain.payloads;
  if (!first || first.iss !== subject || first.sub !== subject) return undefined;
  const statements = rest.length > 0 && isEc(rest[rest.length - 1]!) ? rest.slice(0, -1) : rest;
  return statements.length > 0 && statements.every((p) => !isEc(p)) ? statements : undefined;
}

/** What a chain resolves the subject's metadata to, and the policy it used; or the policy error. */
export type Resolution =
  | { readonly ok: true; readonly metadata: Metadata; readonly policy: Policy }
  | { readonly ok: false; readonly why: string };

/**
 * Resolves the subject's metadata from its Entity Configuration `own` and the chain's Subordinate
 * Statements (about the subject first): the Immediate Superior's `metadata`, then the
 * metadata_policy claims from the most Superior down, with every metadata_policy_crit operator.
 */
export function resolveFrom(own: Json, statements: readonly Json[]): Resolution {
  try {
    const crit = new Set<string>();
    for (const s of statements)
      if (Array.isArray(s.metadata_policy_crit))
        for (const c of s.metadata_policy_crit.slice(0, 100)) if (typeof c === "string") crit.add(c);
    const policies = [...statements]
      .reverse()
      .map((s) => s.metadata_policy)
      .filter((p) => p !== undefined);
    const policy = resolvePolicy(policies, crit);
    return { ok: true, metadata: applyPolicy(own.metadata, statements[0]?.metadata, policy), policy };
  } catch (e) {
    if (e instanceof PolicyError) return { ok: false, why: e.message };
    throw e;
  }
}
