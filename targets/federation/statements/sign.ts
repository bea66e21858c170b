import { SignJWT } from "jose";
import type { FedContext } from "../context.js";
import type { EntityKey } from "../keys.js";
import type { Entity } from "../model/entity.js";

/** The current signing key of `e` (its Federation Entity Key). */
export const keyOf = (ctx: FedContext, e: Entity): EntityKey => ctx.keys.key(e.id, e.keyVersion);

/**
 * Signs `payload` with ES256 and the JOSE header `typ` and, unless `kid` is false, the key's
 * kid (public-spec-facts §2 Entity statements: kid REQUIRED, alg not none).
 */
export function sign(
  payload: Record<string, unknown>,
  key: EntityKey,
  typ: string,
  o: { kid?: boolean | string } = {},
): Promise<string> {
  // Stryker disable next-line BooleanLiteral,StringLiteral: fault machinery the ignorer does not recognise: kid is false only under ec-no-kid, and a string other than the signing key's kid only under ec-signed-with-stale-key; every other caller passes the key's own kid or nothing
  const kid = o.kid === false ? {} : { kid: typeof o.kid === "string" ? o.kid : key.kid };
  return new SignJWT(payload).setProtectedHeader({ alg: "ES256", typ, ...kid }).sign(key.privateKey);
}
