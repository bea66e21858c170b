import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { parseJsonBounded } from "../../../src/http/json-bounds.js";
import type { VciProfile } from "../profile.js";
import { body, isJwtType, isObject, said, Vci, type CredentialReply, type Json } from "../client.js";
import { baseline, goodRequest, session } from "../session.js";

/** The Wallet's content encryptions, in the order it asks for them. */
const WALLET_ENCS = ["A128GCM", "A256GCM"];

/** The protected header of a compact JWE, read without decrypting (undefined when it is not one). */
function jweHeader(text: string): Json | undefined {
  const parts = text.trim().split(".");
  if (parts.length !== 5 || parts[0] === undefined) return undefined;
  const p = parseJsonBounded(Buffer.from(parts[0], "base64url").toString("utf8"));
  return p.ok && isObject(p.value) ? p.value : undefined;
}

/** The issuer's credential_response_encryption metadata, or a skip (not offered). */
async function responseEncryption(v: Vci): Promise<Json> {
  const e = (await v.metadata()).credential_response_encryption;
  if (!isObject(e))
    v.c.skip(
      "the issuer does not offer response encryption (no credential_response_encryption)",
      "not-offered",
    );
  return e;
}

/** specs/000 Credential Request (credential_response_encryption), Issuer Metadata; public §8.3. */
export const encryptionChecks = [
  defineCheck<VciProfile>({
    id: "vci.encryption-response",
    title:
      "with credential_response_encryption the Credential Response is an application/jwt JWE that decrypts with the Wallet's key and uses the requested enc",
    requirements: ["VCI-ENC-RESPONSE"],
    async run(c) {
      const v = new Vci(c);
      const e = await responseEncryption(v);
      const asked = await v.encryption();
      if (!asked)
        return c.skip(
          "the issuer's response encryption offers no ECDH-ES with A128GCM or A256GCM, which the Wallet uses",
          "other",
        );
      const supported = Array.isArray(e.enc_values_supported) ? e.enc_values_supported : [];
      const encs = WALLET_ENCS.filter((x) => supported.includes(x));
      // Every advertised enc the Wallet has, then the first once more with the key reduced to
      // kty, crv, x and y: alg, use and kid are OPTIONAL JWK members (RFC 7517 §4), so the
      // issuer must accept the bare key as well.
      const { kty, crv, x, y } = asked.jwk as Json;
      const asks = [
        ...encs.map((enc) => ({ enc, jwk: asked.jwk, what: enc })),
        ...encs.slice(0, 1).map((enc) => ({
          enc,
          jwk: { kty, crv, x, y },
          what: `${enc}, the key without alg, use or kid`,
        })),
      ];
      const replies: { enc: string; what: string; r: CredentialReply }[] = [];
      for (const { enc, jwk, what } of asks) {
        const s = await session(v);
        const req = {
          ...(await goodRequest(v, s, await v.keyFor(s.conf))),
          credential_response_encryption: { jwk, enc },
        };
        replies.push({
          enc,
          what,
          r: await v.credential(s.token, req, {
            label: `credential request, response encrypted with ${what}`,
          }),
        });
      }
      const issued = replies.filter(({ r }) => r.res.status === 200);
      const refused = replies.filter(({ r }) => r.res.status !== 200);
      if (issued.length === 0) {
        const first = refused[0]?.r.res as HttpResponse;
        if (e.encryption_required === true)
          c.skip(
            `every encrypted Credential Request was refused (${said(first)}): see VCI-CRED-ISSUE`,
            "dependency",
          );
        // Encryption is optional: the same request unencrypted tells whether encryption is the cause.
        const s = await session(v);
        const plain = await v.credential(s.token, await goodRequest(v, s, await v.keyFor(s.conf)), {
          encrypt: false,
          label: "credential request without encryption (baseline)",
        });
        if (plain.res.status !== 200)
          c.skip(
            `a valid Credential Request answered ${said(plain.res)} with and without encryption: see VCI-CRED-ISSUE`,
            "dependency",
          );
      }
      for (const { what, r } of refused)
        c.check("VCI-ENC-RESPONSE", false, {
          expected: `200 for a valid request asking for an ECDH-ES response with ${what}, which the metadata advertises`,
          actual: said(r.res),
          res: r.res,
          kind: "wrong-status",
        });
      for (const { enc, what, r } of issued) {
        c.check("VCI-ENC-RESPONSE", isJwtType(r.res), {
          expected: `Content-Type application/jwt: the response encrypted as asked (${what})`,
          actual: `Content-Type ${r.res.header("content-type") ?? "absent"}, not encrypted: ${said(r.res)}`,
          res: r.res,
          // Whatever its Content-Type, the response came in the clear where an encrypted one was asked.
          kind: "wrong-value",
        });
        if (!isJwtType(r.res)) continue;
        c.check("VCI-ENC-RESPONSE", r.decryptError === undefined, {
          expected: "a compact JWE that decrypts with the Wallet's key to a JSON Credential Response",
          actual: r.decryptError ?? "",
          res: r.res,
        });
        const h = jweHeader(r.res.text);
        c.check("VCI-ENC-RESPONSE", h?.enc === enc, {
          expected: `JWE protected header enc ${enc}, as requested`,
          actual: h ? `enc ${quote(h.enc)}, alg ${quote(h.alg)}` : "no readable JWE protected header",
          res: r.res,
          kind: h === undefined ? "malformed" : h.enc === undefined ? "missing" : "wrong-value",
        });
        if (r.decryptError === undefined && !Array.isArray(r.body.credentials))
          c.note(
            `the decrypted ${what} response has no credentials array (judged by VCI-CRED-RESPONSE-SHAPE in the issuance check)`,
          );
      }
    },
  }),
  defineCheck<VciProfile>({
    id: "vci.encryption-required",
    title:
      "an issuer with encryption_required true refuses a Credential Request without credential_response_encryption, or with one that gives no usable key or enc",
    requirements: ["VCI-ENC-REQUIRED"],
    async run(c) {
      const v = new Vci(c);
      const e = await responseEncryption(v);
      if (e.encryption_required !== true)
        c.skip(
          "the issuer does not require response encryption (encryption_required is not true)",
          "not-offered",
        );
      // Baseline: the same request with encryption succeeds.
      const base = await baseline(v);
      const s = await session(v, { configuration: base.id });
      const r = await v.credential(s.token, await goodRequest(v, s, await v.keyFor(s.conf)), {
        encrypt: false,
        label: "credential request without credential_response_encryption",
      });
      c.check("VCI-ENC-REQUIRED", r.res.status === 400, {
        expected: "400 (invalid_encryption_parameters) for a request without credential_response_encryption",
        actual: said(r.res),
        res: r.res,
      });
      const code = body(r.res).error;
      if (r.res.status === 400 && code !== "invalid_encryption_parameters")
        c.note(`refused with error ${quote(code)}, not invalid_encryption_parameters`);
      // A member that gives no usable key or enc provides no encryption keys either: each is
      // refused like an absent one (public §8.3.1: invalid_encryption_parameters, "invalid or missing").
      const asked = await v.encryption();
      const jwk = isObject(asked?.jwk) ? asked.jwk : {};
      const enc = asked?.enc ?? "A128GCM";
      const unusable: [string, unknown][] = [
        ["null", null],
        ["an enc that is no JWE enc value", { jwk, enc: "idc-no-such-enc" }],
        ["no enc", { jwk }],
        ["no jwk", { enc }],
        [
          "a symmetric (kty oct) jwk, no public key",
          { jwk: { kty: "oct", k: "aWRjb25mb3JtLXN5bW1ldHJpYy1rZXk" }, enc },
        ],
        ["an EC jwk without its coordinates", { jwk: { kty: "EC", crv: "P-256" }, enc }],
      ];
      for (const [what, member] of unusable) {
        const bad = await v.credential(
          s.token,
          { ...(await goodRequest(v, s, await v.keyFor(s.conf))), credential_response_encryption: member },
          { encrypt: false, label: `credential request whose credential_response_encryption is ${what}` },
        );
        c.check("VCI-ENC-REQUIRED", bad.res.status === 400, {
          expected: `400 (invalid_encryption_parameters) for credential_response_encryption with ${what}`,
          actual: said(bad.res),
          res: bad.res,
        });
        const badCode = body(bad.res).error;
        if (bad.res.status === 400 && badCode !== "invalid_encryption_parameters")
          c.note(`${what}: refused with error ${quote(badCode)}, not invalid_encryption_parameters`);
      }
    },
  }),
];
