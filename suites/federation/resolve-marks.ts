import type { JWK } from "jose";
import { quote } from "../../src/engine/quote.js";
import type { Anchor, Configurations } from "./resolve-subjects.js";
import { decodeStatement, isObject, LEEWAY, now, verifyWith, type Json } from "./statements.js";

/** Most Trust Marks judged in one resolve response, and most distinct issuers whose keys are read. */
export const MAX_MARKS = 50;
const MAX_ISSUERS = 10;

/** A Trust Mark of a resolve response: valid, invalid (why), or not decidable here (why). */
export type MarkVerdict =
  | { readonly state: "valid"; readonly exp: number | undefined }
  | { readonly state: "invalid"; readonly why: string }
  | { readonly state: "uncertain"; readonly why: string };

/**
 * Judges the Trust Marks a resolver returns (OpenID Federation 1.0, Resolve Entity: "the response
 * set MUST include only verified Trust Marks"; Resolve Response trust_marks; Validating a Trust
 * Mark): each a {trust_mark_type, trust_mark} whose JWT has typ trust-mark+jwt, is about the
 * subject and of that type, was issued by an issuer the Trust Anchor's trust_mark_issuers allows
 * for the type (when it names the type with issuers), verifies with the issuer's key its kid
 * names, and is not expired. The issuer's keys are the anchor's own, or its self-verified Entity
 * Configuration's.
 */
export class ResolveMarkJudge {
  private readonly issuers = new Map<string, Promise<readonly JWK[] | string>>();

  constructor(
    private readonly anchor: Anchor,
    private readonly ecs: Configurations,
  ) {}

  async judge(m: unknown, subject: string): Promise<MarkVerdict> {
    const invalid = (why: string): MarkVerdict => ({ state: "invalid", why });
    if (!isObject(m) || typeof m.trust_mark_type !== "string" || typeof m.trust_mark !== "string")
      return invalid(`${quote(m, 100)} is not {trust_mark_type, trust_mark}`);
    const type = m.trust_mark_type;
    const d = decodeStatement(m.trust_mark);
    if (!d.ok) return invalid(`the ${quote(type, 80)} Trust Mark: ${d.why}`);
    const { header, payload } = d;
    if (header.typ !== "trust-mark+jwt")
      return invalid(`the ${quote(type, 80)} Trust Mark has typ ${quote(header.typ ?? null)}`);
    if (payload.sub !== subject)
      return invalid(`the ${quote(type, 80)} Trust Mark is about ${quote(payload.sub ?? null, 80)}`);
    if (payload.trust_mark_type !== type)
      return invalid(
        `the Trust Mark listed as ${quote(type, 80)} is of type ${quote(payload.trust_mark_type ?? null, 80)}`,
      );
    if (typeof payload.iss !== "string") return invalid(`the ${quote(type, 80)} Trust Mark has no iss`);
    const allowed = this.allowedIssuers(type);
    if (allowed !== undefined && !allowed.includes(payload.iss))
      return invalid(
        `${quote(payload.iss, 80)} is not among the Trust Anchor's trust_mark_issuers for ${quote(type, 80)}`,
      );
    const keys = await this.keysOf(payload.iss);
    if (typeof keys === "string") return { state: "uncertain", why: `its issuer's keys: ${keys}` };
    const bad = await verifyWith(m.trust_mark, header, keys);
    if (bad !== undefined)
      return invalid(`the ${quote(type, 80)} Trust Mark does not verify with its issuer's keys: ${bad}`);
    return timeVerdict(type, payload);
  }

  /** The issuers the anchor's trust_mark_issuers names for `type`; undefined when it does not restrict them. */
  private allowedIssuers(type: string): unknown[] | undefined {
    const tmi = this.anchor.payload.trust_mark_issuers;
    const list = isObject(tmi) ? tmi[type] : undefined;
    return Array.isArray(list) && list.length > 0 ? list : undefined;
  }

  private keysOf(iss: string): Promise<readonly JWK[] | string> {
    if (iss === this.anchor.id) return Promise.resolve(this.anchor.keys);
    const had = this.issuers.get(iss);
    if (had) return had;
    if (this.issuers.size >= MAX_ISSUERS)
      return Promise.resolve(`more than ${MAX_ISSUERS} Trust Mark issuers; ${quote(iss, 80)} not fetched`);
    const p = this.ecs
      .get(iss, `Entity Configuration of the Trust Mark issuer ${iss.slice(0, 160)}`)
      .then((ec) => (typeof ec === "string" ? ec : ec.keys));
    this.issuers.set(iss, p);
    return p;
  }
}

function timeVerdict(type: string, p: Json): MarkVerdict {
  const t = now();
  if (typeof p.iat !== "number" || p.iat > t + LEEWAY)
    return {
      state: "invalid",
      why: `the ${quote(type, 80)} Trust Mark has iat ${quote(p.iat ?? null)}, not in the past`,
    };
  if (p.exp === undefined) return { state: "valid", exp: undefined };
  if (typeof p.exp !== "number")
    return { state: "invalid", why: `the ${quote(type, 80)} Trust Mark has exp ${quote(p.exp)}` };
  if (p.exp < t - LEEWAY)
    return {
      state: "invalid",
      why: `the ${quote(type, 80)} Trust Mark expired at ${p.exp} (${t - p.exp} s ago)`,
    };
  if (p.exp <= t + LEEWAY)
    return {
      state: "uncertain",
      why: `the ${quote(type, 80)} Trust Mark's exp ${p.exp} is within ${LEEWAY} s of now`,
    };
  return { state: "valid", exp: p.exp };
}

/** The exp of a Trust Mark element as sent (for the resolve response's exp), if it reads as one. */
export function markExp(m: unknown): number | undefined {
  if (!isObject(m) || typeof m.trust_mark !== "string") return undefined;
  const d = decodeStatement(m.trust_mark);
  return d.ok && typeof d.payload.exp === "number" ? d.payload.exp : undefined;
}
