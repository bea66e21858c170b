import { sameKey, type ParsedCredential } from "../../mocks/wallet/credential.js";
import type { HolderKey } from "../../mocks/wallet/keys.js";
import type { HttpResponse } from "../../src/http/client.js";
import type { Ctx, Json } from "./client.js";
import { issuerKeys, judgeSignature, type IssuerKeys } from "./issuer-keys.js";
import { boundKeyOf, cnfShown, readableFormat, readCredential, show } from "./session.js";

/** Issuer keys looked up once per `iss` for the whole check; a hostile credential names at most a few. */
export function issuerKeyCache(c: Ctx): (iss: string) => Promise<IssuerKeys> {
  const lookups = new Map<string, Promise<IssuerKeys>>();
  return (iss) => {
    let got = lookups.get(iss);
    if (got === undefined) {
      got =
        lookups.size >= 4
          ? Promise.resolve({ none: "more issuers than the Wallet looks up in one check" })
          : issuerKeys(c, iss);
      lookups.set(iss, got);
    }
    return got;
  };
}

/** What the credentials of one response are judged against. */
export interface IssuedCredentials {
  /** The configuration id and object the credentials were asked for. */
  readonly id: string;
  readonly conf: Json;
  /** The `credential` values of the response, every one of them judged. */
  readonly values: readonly unknown[];
  readonly res: HttpResponse;
  /**
   * The proof key every credential must be bound to; `"unbound"` when the configuration binds no
   * key; `undefined` when the caller judges binding itself (a batch binds each to its own key).
   */
  readonly key: HolderKey | "unbound" | undefined;
  readonly keysOf: (iss: string) => Promise<IssuerKeys>;
}

/**
 * Judges every credential of a response (specs/000 Credential Response; public §8.3, SD-JWT VC):
 * VCI-CRED-FORMAT, VCI-CRED-BOUND-TO-PROOF (unless the caller judges binding) and
 * VCI-CRED-SIGNATURE, each over all credentials, so a batch's or a deferred delivery's later
 * credentials are held to what the first one is.
 */
export async function judgeCredentials(c: Ctx, r: IssuedCredentials): Promise<void> {
  const later = [
    "VCI-CRED-FORMAT",
    ...(r.key !== undefined ? ["VCI-CRED-BOUND-TO-PROOF"] : []),
    "VCI-CRED-SIGNATURE",
  ];
  if (r.values.length === 0) {
    for (const id of later)
      c.skipOnly(id, "the response carries no credential: see VCI-CRED-RESPONSE-SHAPE", "dependency");
    return;
  }
  if (!readableFormat(r.conf.format)) {
    for (const id of later)
      c.skipOnly(
        id,
        `configuration ${r.id} has format ${show(r.conf.format)}; the Wallet reads dc+sd-jwt and jwt_vc_json`,
        "other",
      );
    return;
  }
  const parsed: ParsedCredential[] = [];
  const formatProblems: string[] = [];
  r.values.forEach((value, i) => {
    const out = readCredential(r.conf, value, `credentials[${i}]`);
    formatProblems.push(...out.problems);
    if (out.parsed) parsed.push(out.parsed);
  });
  c.check("VCI-CRED-FORMAT", formatProblems.length === 0, {
    expected: `${r.id} credentials of format ${String(r.conf.format)}, well formed`,
    actual: formatProblems.join("; "),
    res: r.res,
  });
  if (parsed.length === 0) {
    for (const id of later.slice(1))
      c.skipOnly(id, "no credential could be read: see VCI-CRED-FORMAT", "dependency");
    return;
  }
  const key = r.key;
  if (key === "unbound")
    c.skipOnly(
      "VCI-CRED-BOUND-TO-PROOF",
      `configuration ${r.id} binds no key (no proof_types_supported or cryptographic_binding_methods_supported)`,
      "not-offered",
    );
  else if (key !== undefined) {
    const wrong = parsed.filter((p) => !sameKey(boundKeyOf(p, [key.publicJwk]), key.publicJwk));
    c.check("VCI-CRED-BOUND-TO-PROOF", wrong.length === 0, {
      expected: `bound to the proof's key (thumbprint ${key.thumbprint}): cnf.jwk${r.conf.format === "jwt_vc_json" ? ", or a did:jwk of it in sub or vc.credentialSubject.id" : ""}`,
      actual: wrong.map(cnfShown).join("; "),
      res: r.res,
    });
  }
  await judgeSignatures(c, r, parsed);
}

/** VCI-CRED-SIGNATURE over every readable credential; skipped only when none could be judged. */
async function judgeSignatures(
  c: Ctx,
  r: IssuedCredentials,
  parsed: readonly ParsedCredential[],
): Promise<void> {
  const failed: string[] = [];
  const skipped: string[] = [];
  let verified = 0;
  for (const [i, p] of parsed.entries()) {
    const out = await judgeSignature(p, r.keysOf);
    if ("skip" in out) skipped.push(`credential ${i} of ${r.id}: ${out.skip}`);
    else if (out.ok) verified++;
    else failed.push(`credential ${i} of ${r.id} ${out.why}`);
  }
  if (failed.length > 0 || verified > 0) {
    c.check("VCI-CRED-SIGNATURE", failed.length === 0, {
      expected:
        "the issuer JWT of each dc+sd-jwt credential verifies with a key its iss publishes in SD-JWT VC issuer metadata (/.well-known/jwt-vc-issuer), by kid",
      actual: failed.join("; "),
      res: r.res,
    });
    if (skipped.length > 0) c.note(`VCI-CRED-SIGNATURE not judged for ${skipped.join("; ")}`);
  } else if (skipped[0] !== undefined)
    c.skipOnly(
      "VCI-CRED-SIGNATURE",
      skipped.length === 1 ? skipped[0] : `${skipped[0]} (and ${skipped.length - 1} more)`,
      "other",
    );
}
