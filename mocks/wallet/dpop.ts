import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { sha256b64url } from "./b64.js";
import type { HolderKey } from "./keys.js";
import { WalletError } from "./errors.js";

/**
 * A DPoP proof (RFC 9449 §4.2): `typ` dpop+jwt with the public key as `jwk`; claims `jti`,
 * `iat`, `htm`, `htu` without query and fragment, `ath` when it accompanies an access token,
 * and the server's `nonce` when it asked for one. DPoP is the recommended sender constraint
 * (specs/000 Authentication 4).
 */
export async function dpopProof(o: {
  key: HolderKey;
  htm: string;
  htu: string;
  accessToken?: string;
  nonce?: string;
}): Promise<string> {
  let htu: URL;
  try {
    htu = new URL(o.htu);
  } catch {
    throw new WalletError(`DPoP htu is not a URL: ${o.htu.slice(0, 200)}`);
  }
  htu.search = "";
  htu.hash = "";
  const payload: Record<string, unknown> = {
    jti: randomUUID(),
    iat: Math.floor(Date.now() / 1000),
    htm: o.htm,
    htu: htu.href,
    ...(o.accessToken !== undefined ? { ath: sha256b64url(o.accessToken) } : {}),
    ...(o.nonce !== undefined ? { nonce: o.nonce } : {}),
  };
  return new SignJWT(payload)
    .setProtectedHeader({ alg: o.key.alg, typ: "dpop+jwt", jwk: o.key.publicJwk })
    .sign(o.key.privateKey);
}
