import { createHash } from "node:crypto";
import { compactVerify, importJWK, type JSONWebKeySet, type JWK } from "jose";
import {
  SET_TYP,
  SSF_VERIFICATION_EVENT,
  eventNameOf,
  eventProblems,
  subjectProblems,
} from "../../src/protocols/caep.js";
import type { SetProblem, SetRule } from "./types.js";

export type { SetProblem, SetRule } from "./types.js";

/** The SSF stream-updated event (SSF 1.0 §8.1.5): a Transmitter may send it on any stream. */
export const SSF_STREAM_UPDATED_EVENT = "https://schemas.openid.net/secevent/ssf/event-type/stream-updated";

export interface JudgeOptions {
  /** The Transmitter's issuer: `iss` must equal it (SSF §4.1.6); null judges presence only. */
  readonly issuer: string | null;
  /** The Transmitter's public key set (jwks_uri); null leaves the signature unverified (`verified` false). */
  readonly keys: JSONWebKeySet | null;
  /** The stream's `aud`: every `aud` value of the SET must be one of these; absent: any string. */
  readonly audience?: string | readonly string[];
  /**
   * The jtis judged so far in this run; judgeSet adds to it. A jti seen before with the same
   * claims is the same SET delivered again (a push retry, an unacknowledged poll), not a reuse.
   * A Map keeps jti → claims fingerprint; a Set keeps the jti and a `jti\u0000fingerprint` marker.
   */
  readonly seenJtis: Set<string> | Map<string, string>;
  /** The time `iat` is compared with: a Date or milliseconds since 1970 (default now). */
  readonly now?: Date | number;
  /** Clock skew allowed for `iat` in the future, in seconds (default 60). */
  readonly skewSeconds?: number;
}

export interface SetJudgement {
  /** The JOSE header and claims as decoded (absent when the token is not a decodable JWS). */
  readonly header?: Record<string, unknown>;
  readonly payload?: Record<string, unknown>;
  /** Every rule the SET breaks; empty: a valid SET. */
  readonly problems: SetProblem[];
  /** The signature verified with a key of `keys`. */
  readonly verified: boolean;
  /** The same SET (jti and claims) was judged before: delivered again. */
  readonly repeated: boolean;
}

/** Longest token judged: SETs are small, and a poll answer could carry anything. */
const MAX_TOKEN = 1024 * 1024;
/** Keys tried for a token without `kid`, and keys looked at in all. */
const MAX_KEYS = 50;
const ASYMMETRIC = /^(RS|PS|ES)(256|384|512)$|^(EdDSA|Ed25519)$/;
const B64URL = /^[A-Za-z0-9_-]*$/;
/** Messages kept per rule broken (the rest are counted in one more message). */
const MAX_PER_RULE = 5;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const show = (v: unknown): string => {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};

function decodeSegment(seg: string): Record<string, unknown> | undefined {
  if (!B64URL.test(seg)) return undefined;
  try {
    const v = JSON.parse(Buffer.from(seg, "base64url").toString("utf8")) as unknown;
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The JOSE header and claims of a compact JWS, each absent when not decodable (never throws). */
export function decodeSet(token: string): {
  header?: Record<string, unknown>;
  payload?: Record<string, unknown>;
} {
  const parts = token.length <= MAX_TOKEN ? token.trim().split(".") : [];
  if (parts.length !== 3) return {};
  const header = decodeSegment(parts[0]!);
  const payload = decodeSegment(parts[1]!);
  return { ...(header ? { header } : {}), ...(payload ? { payload } : {}) };
}

/**
 * `typ` compares as a media type (RFC 7515 §4.1.9): case-insensitive, and the `application/`
 * prefix may be left out, so "secevent+jwt" and "application/secevent+jwt" are the same.
 */
export function isSetTyp(typ: unknown): boolean {
  if (typeof typ !== "string") return false;
  const t = typ.trim().toLowerCase();
  return t === SET_TYP || t === `application/${SET_TYP}`;
}

/** Whether a JWK can verify a JWS of this alg (kty and curve, and its own alg/use/key_ops if given). */
function misfit(jwk: Record<string, unknown>, alg: string): string | undefined {
  const kty = jwk.kty;
  const crv = jwk.crv;
  const want =
    alg.startsWith("RS") || alg.startsWith("PS")
      ? kty === "RSA"
      : alg === "ES256"
        ? kty === "EC" && crv === "P-256"
        : alg === "ES384"
          ? kty === "EC" && crv === "P-384"
          : alg === "ES512"
            ? kty === "EC" && crv === "P-521"
            : alg === "Ed25519"
              ? kty === "OKP" && crv === "Ed25519"
              : kty === "OKP" && (crv === "Ed25519" || crv === "Ed448");
  if (!want)
    return `is a ${show(kty)}${crv !== undefined ? ` ${show(crv)}` : ""} key, which cannot verify ${alg}`;
  if (jwk.alg !== undefined && jwk.alg !== alg) return `is for alg ${show(jwk.alg)}, the SET says ${alg}`;
  if (jwk.use !== undefined && jwk.use !== "sig") return `has use ${show(jwk.use)}, not "sig"`;
  if (jwk.key_ops !== undefined && !(Array.isArray(jwk.key_ops) && jwk.key_ops.includes("verify")))
    return `has key_ops without "verify"`;
  return undefined;
}

/**
 * Imported keys by alg and JWK, bounded: a run verifies every SET with the same few keys,
 * whether the caller keeps its key set or parses it again for each SET.
 */
const imported = new Map<string, Promise<unknown>>();
const MAX_IMPORTED = 100;

function importOnce(jwk: Record<string, unknown>, alg: string): Promise<unknown> {
  // Only public members: a private key published by mistake still verifies as its public half.
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, k: _k, ...pub } = jwk;
  const id = `${alg} ${JSON.stringify(pub)}`;
  let key = imported.get(id);
  if (!key) {
    key = importJWK({ ...(pub as JWK), ext: true }, alg).catch(() => undefined);
    imported.set(id, key);
    if (imported.size > MAX_IMPORTED) imported.delete(imported.keys().next().value!);
  }
  return key;
}

async function signatureProblems(
  token: string,
  header: Record<string, unknown>,
  keys: JSONWebKeySet | null,
): Promise<{ problems: string[]; verified: boolean }> {
  const alg = header.alg;
  if (typeof alg !== "string") return { problems: ["the header has no alg"], verified: false };
  if (alg === "none") return { problems: ['alg "none": the SET is not signed'], verified: false };
  if (/^HS\d+$/.test(alg))
    return {
      problems: [`alg ${alg} is a shared-secret MAC: a Transmitter signs with a key published at jwks_uri`],
      verified: false,
    };
  if (!ASYMMETRIC.test(alg))
    return { problems: [`alg ${show(alg)} is not an asymmetric JWS signature algorithm`], verified: false };
  // RFC 7515 §4.1.11: extensions a recipient does not understand make the JWS invalid.
  if (header.crit !== undefined)
    return {
      problems: [
        `the header's crit ${show(header.crit)} names extensions this Receiver does not understand (RFC 7515 §4.1.11)`,
      ],
      verified: false,
    };
  if (keys === null) return { problems: [], verified: false };
  const all = (Array.isArray(keys.keys) ? (keys.keys as unknown[]) : []).slice(0, MAX_KEYS).filter(isObject);
  const kid = header.kid;
  let candidates: Record<string, unknown>[];
  if (kid !== undefined) {
    if (typeof kid !== "string") return { problems: ["the header's kid is not a string"], verified: false };
    candidates = all.filter((k) => k.kid === kid);
    if (candidates.length === 0)
      return { problems: [`no key with kid ${show(kid)} in the Transmitter's jwks_uri`], verified: false };
    const fits = candidates.filter((k) => misfit(k, alg) === undefined);
    if (fits.length === 0)
      return { problems: [`the key with kid ${show(kid)} ${misfit(candidates[0]!, alg)!}`], verified: false };
    candidates = fits;
  } else {
    candidates = all.filter((k) => misfit(k, alg) === undefined);
    if (candidates.length === 0)
      return { problems: [`the SET has no kid and no key of jwks_uri fits alg ${alg}`], verified: false };
  }
  for (const jwk of candidates) {
    const key = await importOnce(jwk, alg);
    if (key === undefined) continue;
    try {
      await compactVerify(token, key as CryptoKey, { algorithms: [alg] });
      return { problems: [], verified: true };
    } catch {
      // the next candidate, or the problem below
    }
  }
  const named = kid !== undefined ? `the key with kid ${show(kid)}` : `any key of jwks_uri fitting ${alg}`;
  return { problems: [`the signature does not verify with ${named}`], verified: false };
}

/** A SET's claims fingerprint, so a redelivery of the same SET is told from a reused jti. */
const fingerprint = (payloadSegment: string): string =>
  createHash("sha256").update(payloadSegment).digest("base64url").slice(0, 22);

/** Records the jti; "same" when this jti was seen with the same claims, "other" when with others. */
function remember(seen: JudgeOptions["seenJtis"], jti: string, fp: string): "new" | "same" | "other" {
  if (seen instanceof Map) {
    const before = seen.get(jti);
    if (before === undefined) {
      seen.set(jti, fp);
      return "new";
    }
    return before === fp ? "same" : "other";
  }
  if (!seen.has(jti)) {
    seen.add(jti);
    seen.add(`${jti}\u0000${fp}`);
    return "new";
  }
  return seen.has(`${jti}\u0000${fp}`) ? "same" : "other";
}

function claimsProblems(
  payload: Record<string, unknown>,
  o: JudgeOptions,
  add: (rule: SetRule, message: string) => void,
): void {
  const { iss, aud, iat, jti, sub, exp, txn, events } = payload;
  if (iss === undefined) add("iss", "iss is missing (REQUIRED)");
  else if (typeof iss !== "string") add("iss", `iss ${show(iss)} is not a string`);
  else if (o.issuer !== null && iss !== o.issuer)
    add("iss", `iss ${show(iss)} is not the Transmitter's issuer ${show(o.issuer)}`);

  const auds = typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud : undefined;
  if (aud === undefined) {
    if (o.audience !== undefined) add("aud", "aud is missing: the stream's aud was expected");
  } else if (!auds || auds.length === 0 || !auds.every((a) => typeof a === "string"))
    add("aud", `aud ${show(aud)} is not a string or a non-empty array of strings`);
  else if (o.audience !== undefined) {
    const want = typeof o.audience === "string" ? [o.audience] : o.audience;
    const stray = auds.filter((a) => !want.includes(a as string));
    if (stray.length > 0) add("aud", `aud ${show(aud)} is not the stream's aud ${show(o.audience)}`);
  }

  if (iat === undefined) add("iat", "iat is missing (REQUIRED)");
  else if (typeof iat !== "number" || !Number.isFinite(iat))
    add("iat", `iat ${show(iat)} is not a NumericDate`);
  else {
    const now = o.now instanceof Date ? o.now.getTime() : (o.now ?? Date.now());
    const ahead = iat - now / 1000;
    if (ahead > (o.skewSeconds ?? 60)) add("iat", `iat is ${Math.round(ahead)} s in the future`);
  }

  if (jti === undefined) add("jti", "jti is missing (REQUIRED)");
  else if (typeof jti !== "string" || jti === "") add("jti", `jti ${show(jti)} is not a non-empty string`);

  if (sub !== undefined) add("sub", "the JWT sub claim is present: SSF SETs carry sub_id instead (MUST NOT)");
  if (exp !== undefined) add("exp", "exp is present: SSF SETs MUST NOT use it");
  if (txn === undefined) add("txn", "txn is missing (SHOULD be present)");
  else if (typeof txn !== "string" || txn === "") add("txn", `txn ${show(txn)} is not a non-empty string`);

  if (events === undefined) add("events", "events is missing (REQUIRED)");
  else if (!isObject(events) || Object.keys(events).length === 0)
    add("events", "events is not an object holding an event");
  const uris = isObject(events) ? Object.keys(events) : [];
  if (uris.length > 1) add("one-event", `events holds ${uris.length} events (SHOULD hold one)`);
  let streamSubject = false;
  for (const uri of uris.slice(0, 10)) {
    const claims = (events as Record<string, unknown>)[uri];
    const ssf = uri === SSF_VERIFICATION_EVENT || uri === SSF_STREAM_UPDATED_EVENT;
    if (eventNameOf(uri) === undefined && !ssf) {
      add("events", `event type ${show(uri)} is not a CAEP or SSF event type`);
      continue;
    }
    streamSubject ||= ssf;
    const path = `events[${uri}]`;
    if (uri === SSF_STREAM_UPDATED_EVENT) {
      if (!isObject(claims)) add("event-claims", `${path} is not a JSON object`);
      else {
        if (!["enabled", "paused", "disabled"].includes(claims.status as string))
          add("event-claims", `${path}.status ${show(claims.status)} is not enabled, paused or disabled`);
        if (claims.reason !== undefined && typeof claims.reason !== "string")
          add("event-claims", `${path}.reason is not a string`);
      }
      continue;
    }
    for (const p of eventProblems(uri, claims, path)) {
      const reason = p.startsWith(`${path}.reason_admin `) || p.startsWith(`${path}.reason_user `);
      add(reason ? "reason-maps" : "event-claims", p);
    }
    // CAEP 1.0 §2: event_timestamp is when the event occurred, a NumericDate (seconds): one far
    // ahead of the SET's arrival is wrong (a Transmitter writing milliseconds, say).
    if (isObject(claims) && typeof claims.event_timestamp === "number") {
      const at = o.now instanceof Date ? o.now.getTime() : (o.now ?? Date.now());
      const ahead = claims.event_timestamp - at / 1000;
      if (ahead > (o.skewSeconds ?? 60))
        add(
          "event-claims",
          `${path}.event_timestamp is ${Math.round(ahead)} s in the future (a NumericDate counts seconds)`,
        );
    }
  }

  const subId = payload.sub_id;
  if (subId === undefined) add("sub_id", "sub_id is missing (REQUIRED at the top level)");
  else {
    for (const p of subjectProblems(subId)) add("sub_id", p);
    // SSF §8.1.4.2, §8.1.5: the subject of a verification or stream-updated event is the stream.
    if (streamSubject && isObject(subId) && subId.format !== "opaque")
      add(
        "sub_id",
        `sub_id of an SSF stream event has format ${show(subId.format)}, not opaque (the stream id)`,
      );
  }
}

/**
 * Judges one SET as a Receiver must (SSF 1.0 §4.1 "Security Event Token Profile", RFC 8417,
 * CAEP 1.0 event claims, public-spec-facts §4): the signature with a key of the Transmitter's
 * `jwks_uri` (by kid; `none`, HS*, an alg the key does not fit and an unknown kid are
 * "signature" problems), `typ` secevent+jwt, `iss`, `aud`, `iat` not in the future, `jti`
 * present and unique in the run, no `sub`, no `exp`, a valid `sub_id`, one event under a known
 * URI with its claims, reason maps, `txn` (SHOULD). Claims are judged even when the signature
 * fails, so each rule is reported on its own. Never throws: garbage is a "malformed" problem.
 */
export async function judgeSet(token: unknown, o: JudgeOptions): Promise<SetJudgement> {
  const problems: SetProblem[] = [];
  // A hostile SET can break one rule thousands of times (aliases of 10,000 identifiers): a few
  // messages per rule are kept and the rest counted, so every rule broken is still named.
  const perRule = new Map<SetRule, number>();
  const add = (rule: SetRule, message: string): void => {
    const n = (perRule.get(rule) ?? 0) + 1;
    perRule.set(rule, n);
    if (n <= MAX_PER_RULE)
      problems.push({ rule, message: message.length > 500 ? `${message.slice(0, 497)}...` : message });
  };
  const summed = (): SetProblem[] => [
    ...problems,
    ...[...perRule]
      .filter(([, n]) => n > MAX_PER_RULE)
      .map(([rule, n]) => ({ rule, message: `and ${n - MAX_PER_RULE} more ${rule} problems` })),
  ];
  const malformed = (message: string): SetJudgement => ({
    problems: [{ rule: "malformed", message }],
    verified: false,
    repeated: false,
  });
  if (typeof token !== "string") return malformed("the SET is not a string");
  if (token.length > MAX_TOKEN) return malformed(`the SET is longer than ${MAX_TOKEN} characters`);
  const text = token.trim();
  const parts = text.split(".");
  if (parts.length === 5) return malformed("the SET is a JWE (five parts): a signed SET (JWS) was expected");
  if (parts.length !== 3)
    return malformed(
      `the SET is not a compact JWS (${parts.length} part${parts.length === 1 ? "" : "s"}, not 3)`,
    );
  const header = decodeSegment(parts[0]!);
  if (!header) return malformed("the SET's header is not base64url of a JSON object");
  const payload = decodeSegment(parts[1]!);
  if (!payload) return { ...malformed("the SET's claims are not base64url of a JSON object"), header };
  if (!B64URL.test(parts[2]!))
    return { ...malformed("the SET's signature is not base64url"), header, payload };

  let verified = false;
  try {
    const sig = await signatureProblems(text, header, o.keys);
    verified = sig.verified;
    for (const m of sig.problems) add("signature", m);
  } catch {
    add("signature", "the signature could not be verified");
  }
  if (header.typ === undefined) add("typ", `the header has no typ (SSF requires typ ${SET_TYP})`);
  else if (!isSetTyp(header.typ)) add("typ", `typ ${show(header.typ)} is not ${SET_TYP}`);

  claimsProblems(payload, o, add);

  let repeated = false;
  const jti = payload.jti;
  if (typeof jti === "string" && jti !== "") {
    const seen = remember(o.seenJtis, jti, fingerprint(parts[1]!));
    repeated = seen === "same";
    if (seen === "other") add("jti-unique", `jti ${show(jti)} was used before by another SET`);
  }
  return { header, payload, problems: summed(), verified, repeated };
}
