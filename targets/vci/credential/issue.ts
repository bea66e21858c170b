import { exportJWK, generateKeyPair, type JWK } from "jose";
import type { ConfigurationId } from "../configurations.js";
import type { VciContext } from "../context.js";
import { publicJwk } from "../issuance/jwk.js";
import { jwtVcCredential } from "./jwt-vc.js";
import { sdJwtCredential } from "./sd-jwt.js";

/** A fresh key the issuer makes itself (the `credential-unbound` fault binds to it). */
// Stryker disable all: runs only under the fault "credential-unbound"
async function issuerMadeKey(): Promise<JWK> {
  const { publicKey } = await generateKeyPair("ES256", { extractable: true });
  return publicJwk({ ...(await exportJWK(publicKey)) });
}
// Stryker restore all

/**
 * The `batch-tail-stale-key` fault: the issuer context with a credential key of its own under
 * the published `kid` (a batch signer that kept a key from before a rotation).
 */
// Stryker disable all: reached only under the batch-tail-stale-key fault
async function staleSigner(ctx: VciContext): Promise<VciContext> {
  const { privateKey } = await generateKeyPair("ES256");
  return { ...ctx, keys: { ...ctx.keys, credential: { ...ctx.keys.credential, privateKey } } };
}
// Stryker restore all

/**
 * One credential of `configuration` per holder key, each bound to its own key (specs/000
 * Rules 1 and 8); an undefined holder (the `proof-optional` fault) gets an unbound credential.
 * Faults: `batch-one-key` binds all to the first key, `credential-unbound` to keys the issuer made.
 */
export async function issueCredentials(
  ctx: VciContext,
  configuration: ConfigurationId,
  holders: readonly (JWK | undefined)[],
): Promise<{ credential: string }[]> {
  const make = configuration === "identity_sd_jwt" ? sdJwtCredential : jwtVcCredential;
  const out: { credential: string }[] = [];
  for (const [i, holder] of holders.entries()) {
    let key = ctx.faults.has("batch-one-key") ? (holders[0] ?? holder) : holder;
    if (key !== undefined && ctx.faults.has("credential-unbound")) key = await issuerMadeKey();
    const signer = i > 0 && ctx.faults.has("batch-tail-stale-key") ? await staleSigner(ctx) : ctx;
    out.push({ credential: await make(signer, key) });
  }
  return out;
}
