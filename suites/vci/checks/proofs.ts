import { CompactSign, exportJWK } from "jose";
import { defineCheck, type Details } from "../../../src/engine/check.js";
import { tokenAttacks, type TokenAttackId } from "../../../src/engine/token-attacks.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { holderKey, type HolderAlg, type HolderKey } from "../../../mocks/wallet/keys.js";
import { jwtProof } from "../../../mocks/wallet/proof.js";
import type { VciProfile } from "../profile.js";
import { isError, needsProof, proofAlgs, refusalKind, said, Vci, type Ctx, type Json } from "../client.js";
import { baseline, session, stranger, type Session } from "../session.js";

/** What came back for a request that should be refused: an acceptance, or a refusal with its status and error. */
export function answered(res: HttpResponse): string {
  return res.status >= 200 && res.status < 300 ? `accepted: ${said(res)}` : `refused with ${said(res)}`;
}

/**
 * The details of a check that a defective request is refused with 400 and a code: a 2xx reads
 * as an acceptance, a 5xx as the issuer failing on the request (public §8.3.1: request errors are
 * 400 with a code the Wallet can act on), so neither looks like the other. Its kind: an
 * acceptance, another status than 400, or (a 400) another error code or none.
 */
export function refusal(res: HttpResponse, expected: string, what = "the defective request"): Details {
  const message =
    res.status >= 500
      ? `${what} was refused with ${res.status}, a server error, not with a 400 error code the Wallet can act on`
      : res.status >= 200 && res.status < 300
        ? `${what} was accepted with ${res.status}, not refused`
        : undefined;
  return {
    expected,
    actual: answered(res),
    res,
    kind: refusalKind(res),
    ...(message !== undefined ? { message } : {}),
  };
}

/** The proof checks need a configuration that takes proofs. */
function needsProofs(c: Ctx, s: Session): void {
  if (!needsProof(s.conf))
    c.skip(`configuration ${s.id} binds no key, so its requests carry no proofs`, "not-offered");
}

/**
 * Sends, on a fresh access token, a Credential Request whose only defect is its proof (made by
 * `proof` with a fresh key), and decides `requirement`: 400 with `error` (or one of them).
 */
async function refused(
  c: Ctx,
  v: Vci,
  requirement: string,
  what: string,
  proof: (key: HolderKey) => Promise<unknown>,
  error: string | readonly string[] = "invalid_proof",
): Promise<void> {
  const s = await session(v);
  const p = await proof(await v.keyFor(s.conf));
  const req: Json = {
    ...v.target(s.tokenRes, s.id),
    ...(p !== undefined ? { proofs: { jwt: [p] } } : {}),
  };
  const r = await v.credential(s.token, req, { label: what });
  const errors = typeof error === "string" ? [error] : error;
  c.check(
    requirement,
    errors.some((e) => isError(r.res, 400, e)),
    refusal(r.res, `${what}: 400 ${errors.join(" or ")}`, what),
  );
}

/**
 * A proof signed by `key` with exactly this protected header (beside `alg`) and these payload
 * bytes, for the shapes jwtProof never makes: no `jwk`, a payload that is not a claims object.
 */
async function rawProof(key: HolderKey, header: Json, payload: string): Promise<string> {
  return new CompactSign(new TextEncoder().encode(payload))
    .setProtectedHeader({ ...header, alg: key.alg })
    .sign(key.privateKey);
}

/** The claims of a valid proof for this issuer (aud, iat, iss, and a fresh nonce when it has one). */
async function proofClaims(c: Ctx, v: Vci): Promise<Json> {
  const nonce = await v.nonce();
  return {
    aud: v.issuer,
    iat: Math.floor(Date.now() / 1000),
    iss: c.profile.clientId,
    ...(nonce !== undefined ? { nonce } : {}),
  };
}

/**
 * Proof forgeries from the shared token attack family, beyond the ones built by the Wallet:
 * what each does and the requirement it decides.
 */
const FORGED: readonly [TokenAttackId, string, string][] = [
  ["stranger-key", "VCI-PROOF-SIGNATURE", "a proof signed by another key than its header jwk"],
  ["hs256-public-key", "VCI-PROOF-SIGNATURE", "a proof in HS256 keyed with its own public key"],
  ["typ-absent", "VCI-PROOF-TYP", "a proof without typ"],
  ["missing-aud", "VCI-PROOF-AUD", "a proof without aud"],
  ["missing-iat", "VCI-PROOF-IAT", "a proof without iat"],
  ["iat-future", "VCI-PROOF-IAT", "a proof issued an hour or more in the future"],
];

/** `valid`, a proof of `key`, turned into the `attack` variant of the shared token attack family. */
export async function forgeProof(valid: string, key: HolderKey, attack: TokenAttackId): Promise<string> {
  const signingKey = { ...(await exportJWK(key.privateKey)), alg: key.alg };
  const [forged] = await tokenAttacks({
    token: valid,
    signingKey,
    requiredClaims: ["aud", "iat"],
    only: [attack],
  });
  // Each of the variants the checks send exists for every signing algorithm the Wallet uses.
  if (forged === undefined) throw new Error(`the token attack family made no ${attack} for ${key.alg}`);
  return forged.token;
}

/**
 * A request carrying a valid jwt proof only in the draft-era member `proof` ({proof_type, jwt}),
 * with no `proofs`: a request without proofs, refused with 400 invalid_proof.
 */
async function singularProof(c: Ctx, v: Vci): Promise<void> {
  const s = await session(v);
  const jwt = await v.proof(await v.keyFor(s.conf));
  const r = await v.credential(
    s.token,
    { ...v.target(s.tokenRes, s.id), proof: { proof_type: "jwt", jwt } },
    { label: "a request with the draft-era singular proof and no proofs" },
  );
  c.check(
    "VCI-PROOF-REQUIRED",
    isError(r.res, 400, "invalid_proof"),
    refusal(
      r.res,
      "a request with a jwt proof only in the draft-era member proof, no proofs: 400 invalid_proof (1.0 has no member proof, so the request carries no proofs)",
      "a request with the draft-era singular proof and no proofs",
    ),
  );
}

const hasNonceEndpoint = async (v: Vci): Promise<boolean> =>
  (await v.metadata()).nonce_endpoint !== undefined;

/** specs/000 Credential Request (rules for proofs); public appendix F.1 and §8.3.1. */
export const proofChecks = [
  defineCheck<VciProfile>({
    id: "vci.proof-required",
    title:
      "a Credential Request without proofs (none, only the draft-era singular proof, an empty jwt array, or a number in their place), or with a proof without nonce at an issuer with a nonce endpoint, is refused with 400 invalid_proof",
    requirements: ["VCI-PROOF-REQUIRED", "VCI-PROOF-NONCE-MISSING"],
    async run(c) {
      const v = new Vci(c);
      needsProofs(c, await baseline(v));
      await refused(c, v, "VCI-PROOF-REQUIRED", "a request without proofs", () => Promise.resolve(undefined));
      // proofs.jwt holds JWT strings (Resources: Credential Request): a number is no proof.
      await refused(
        c,
        v,
        "VCI-PROOF-REQUIRED",
        "a request whose only jwt proof is the number 42",
        () => Promise.resolve(42),
        ["invalid_proof", "invalid_credential_request"],
      );
      // The value of proofs.jwt is a non-empty array (Resources: Credential Request).
      {
        const s = await session(v);
        const r = await v.credential(
          s.token,
          { ...v.target(s.tokenRes, s.id), proofs: { jwt: [] } },
          { label: "a request whose proofs.jwt is an empty array" },
        );
        c.check(
          "VCI-PROOF-REQUIRED",
          isError(r.res, 400, "invalid_proof") || isError(r.res, 400, "invalid_credential_request"),
          refusal(
            r.res,
            "a request whose proofs.jwt is an empty array: 400 invalid_proof or invalid_credential_request",
            "a request whose proofs.jwt is an empty array",
          ),
        );
      }
      // The 1.0 request has no member proof (Resources: Credential Request): the draft-era
      // singular proof is an unknown member, ignored (Rules 10), so the request has no proofs.
      await singularProof(c, v);
      if (!(await hasNonceEndpoint(v))) {
        c.skipOnly(
          "VCI-PROOF-NONCE-MISSING",
          "the issuer has no nonce endpoint, so its proofs need no nonce",
          "not-offered",
        );
        return;
      }
      await refused(c, v, "VCI-PROOF-NONCE-MISSING", "a proof without nonce", (key) =>
        jwtProof({ key, ids: v.ids, aud: v.issuer, iss: c.profile.clientId }),
      );
    },
  }),
  defineCheck<VciProfile>({
    id: "vci.proof-rejected",
    title:
      "a jwt proof with another aud or none (also a payload that is null or no JSON), a wrong typ or none, alg none, a signature that does not verify (flipped, another key, HS256 keyed with the public key, an unknown kid and no jwk), a private key in its header, no iat, a string iat or an iat an hour ahead is refused with 400 invalid_proof",
    requirements: [
      "VCI-PROOF-AUD",
      "VCI-PROOF-TYP",
      "VCI-PROOF-ALG-NONE",
      "VCI-PROOF-SIGNATURE",
      "VCI-PROOF-PRIVATE-KEY",
      "VCI-PROOF-IAT",
    ],
    async run(c) {
      const v = new Vci(c);
      needsProofs(c, await baseline(v));
      const issuer = v.issuer.replace(/\/$/, "");
      await refused(c, v, "VCI-PROOF-AUD", "a proof with aud of another issuer", (key) =>
        v.proof(key, { aud: "https://other-issuer.idconform.test" }),
      );
      await refused(c, v, "VCI-PROOF-AUD", "a proof with aud of a path below the issuer", (key) =>
        v.proof(key, { aud: `${issuer}/other` }),
      );
      // A payload that is no claims object (RFC 7519 §7.2) carries no aud at all.
      await refused(c, v, "VCI-PROOF-AUD", "a signed proof whose payload is JSON null", (key) =>
        rawProof(key, { typ: v.ids.proofTyp, jwk: key.publicJwk }, "null"),
      );
      await refused(c, v, "VCI-PROOF-AUD", "a signed proof whose payload is not JSON", (key) =>
        rawProof(key, { typ: v.ids.proofTyp, jwk: key.publicJwk }, "idconform: not JSON"),
      );
      await refused(c, v, "VCI-PROOF-TYP", "a proof with typ JWT", (key) => v.proof(key, { typ: "JWT" }));
      // Three segments, but the header is no JSON object, so it has no typ at all.
      await refused(c, v, "VCI-PROOF-TYP", "a proof whose header is not JSON", async (key) => {
        const [, payload, signature] = (await v.proof(key)).split(".");
        return `${Buffer.from("idconform: not JSON").toString("base64url")}.${payload}.${signature}`;
      });
      await refused(c, v, "VCI-PROOF-ALG-NONE", "an unsigned proof (alg none)", (key) =>
        v.proof(key, { algNone: true }),
      );
      await refused(c, v, "VCI-PROOF-SIGNATURE", "a proof whose signature does not verify", (key) =>
        v.proof(key, { corruptSignature: true }),
      );
      // No jwk, and a kid the issuer never saw: there is no key the signature could verify with.
      await refused(
        c,
        v,
        "VCI-PROOF-SIGNATURE",
        "a proof naming its key only by a kid the issuer does not know",
        async (key) =>
          rawProof(
            key,
            { typ: v.ids.proofTyp, kid: "idconform-unknown-kid" },
            JSON.stringify(await proofClaims(c, v)),
          ),
      );
      // iat is a NumericDate (RFC 7519 §4.1.6): the time of now as a string is no iat.
      await refused(c, v, "VCI-PROOF-IAT", "a proof whose iat is a string", (key) =>
        v.proof(key, { extraClaims: { iat: String(Math.floor(Date.now() / 1000)) } }),
      );
      for (const [attack, id, what] of FORGED)
        await refused(c, v, id, what, async (key) => forgeProof(await v.proof(key), key, attack));
      await refused(
        c,
        v,
        "VCI-PROOF-PRIVATE-KEY",
        "a proof whose header jwk carries the private key",
        async (key) => {
          const proof = await v.proof(key, { includePrivateKey: true });
          // Registered before it is sent: no output may show the private members it carries.
          c.secret(proof, "PROOF_WITH_PRIVATE_KEY");
          return proof;
        },
      );
    },
  }),
  defineCheck<VciProfile>({
    id: "vci.proof-nonce",
    title:
      "a proof with a nonce the issuer never gave is refused with 400 invalid_nonce; a c_nonce used again is accepted or refused with invalid_nonce",
    requirements: ["VCI-NONCE-REUSE", "VCI-NONCE-INVALID"],
    async run(c) {
      const v = new Vci(c);
      const nonce = await v.nonce();
      if (nonce === undefined)
        return c.skip("the issuer has no nonce endpoint, so it gives no c_nonce", "not-offered");
      // The first use of the nonce is the baseline.
      const s1 = await session(v);
      needsProofs(c, s1);
      const one = await v.credential(
        s1.token,
        {
          ...v.target(s1.tokenRes, s1.id),
          proofs: { jwt: [await v.proof(await v.keyFor(s1.conf), { nonce })] },
        },
        { label: "credential request with a fresh c_nonce" },
      );
      if (one.res.status !== 200)
        c.skip(
          `a valid Credential Request with a fresh c_nonce answered ${said(one.res)}: see VCI-CRED-ISSUE`,
          "dependency",
        );
      const s2 = await session(v);
      const two = await v.credential(
        s2.token,
        {
          ...v.target(s2.tokenRes, s2.id),
          proofs: { jwt: [await v.proof(await v.keyFor(s2.conf), { nonce })] },
        },
        { label: "credential request with the same c_nonce again" },
      );
      c.check("VCI-NONCE-REUSE", two.res.status === 200 || isError(two.res, 400, "invalid_nonce"), {
        expected: "the c_nonce used again: 200, or 400 invalid_nonce so the Wallet fetches a new one",
        actual: answered(two.res),
        res: two.res,
        kind: two.res.status === 400 ? "wrong-code" : "wrong-status",
      });
      await refused(
        c,
        v,
        "VCI-NONCE-INVALID",
        "a proof with a nonce the issuer never gave",
        (key) => v.proof(key, { nonce: stranger("idconform-never-issued") }),
        "invalid_nonce",
      );
    },
  }),
  defineCheck<VciProfile>({
    id: "vci.proof-algs",
    title: "a proof signed with each advertised algorithm the Wallet can produce (ES256, EdDSA) is accepted",
    requirements: ["VCI-PROOF-ALG-SUPPORTED"],
    async run(c) {
      const v = new Vci(c);
      const probe = await session(v);
      needsProofs(c, probe);
      const algs = proofAlgs(probe.conf).filter((a): a is HolderAlg => a === "ES256" || a === "EdDSA");
      if (algs.length === 0)
        c.skip(
          `configuration ${probe.id} advertises ${proofAlgs(probe.conf).join(", ") || "no"} proof algorithms; the Wallet signs ES256 or EdDSA`,
          "other",
        );
      let anyAccepted = false;
      const refusedAlgs: { alg: string; res: HttpResponse }[] = [];
      for (const [i, alg] of algs.entries()) {
        const s = i === 0 ? probe : await session(v, { configuration: probe.id });
        const r = await v.credential(
          s.token,
          { ...v.target(s.tokenRes, s.id), proofs: { jwt: [await v.proof(await holderKey(alg))] } },
          { label: `credential request with a ${alg} proof` },
        );
        if (r.res.status === 200) anyAccepted = true;
        else refusedAlgs.push({ alg, res: r.res });
      }
      // A refusal counts only if a valid request succeeds otherwise.
      if (!anyAccepted) await baseline(v);
      for (const { alg, res } of refusedAlgs)
        c.check("VCI-PROOF-ALG-SUPPORTED", false, {
          expected: `200 for a valid proof signed with ${alg}, which proof_signing_alg_values_supported lists`,
          actual: said(res),
          res,
          kind: "wrong-status",
        });
      if (refusedAlgs.length === 0)
        c.check("VCI-PROOF-ALG-SUPPORTED", true, {
          expected: `${algs.join(", ")} proofs accepted`,
          actual: "accepted",
        });
    },
  }),
];
