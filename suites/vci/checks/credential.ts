import { defineCheck } from "../../../src/engine/check.js";
import type { VciProfile } from "../profile.js";
import {
  body,
  challengeKind,
  isError,
  needsProof,
  refusalKind,
  said,
  Vci,
  type Ctx,
  type Json,
} from "../client.js";
import {
  baseline,
  credentialValues,
  goodRequest,
  session,
  shapeProblems,
  stranger,
  type Session,
} from "../session.js";
import type { IssuerKeys } from "../issuer-keys.js";
import { issuerKeyCache, judgeCredentials } from "../judge-credentials.js";
import { refusal } from "./proofs.js";

/** A Bearer challenge anywhere in a WWW-Authenticate value (several challenges may be comma-joined). */
const BEARER_CHALLENGE = /(^|,)\s*bearer(\s|,|$)/i;

/** Issues one credential of `s` and judges response, format, binding and signature. */
async function issueAndJudge(
  c: Ctx,
  v: Vci,
  s: Session,
  first: boolean,
  keysOf: (iss: string) => Promise<IssuerKeys>,
): Promise<void> {
  const key = await v.keyFor(s.conf);
  const bound = needsProof(s.conf);
  const r = await v.credential(s.token, await goodRequest(v, s, key), {
    label: `credential request (${s.id})`,
  });
  const det = {
    expected: `200 with a ${s.id} credential for a request with a valid jwt proof`,
    actual: said(r.res),
    res: r.res,
    kind: "wrong-status" as const,
  };
  if (first) c.require("VCI-CRED-ISSUE", r.res.status === 200, det);
  else if (!c.check("VCI-CRED-ISSUE", r.res.status === 200, det)) return;
  if (r.decryptError !== undefined) {
    const why = `the encrypted 200 response could not be read (${r.decryptError}): see VCI-ENC-RESPONSE`;
    if (first) c.skip(why, "dependency");
    c.note(`${s.id}: ${why}`);
    return;
  }
  const problems = shapeProblems(r.body, bound ? 1 : 0);
  const list = r.body.credentials;
  c.check("VCI-CRED-RESPONSE-SHAPE", problems.length === 0, {
    expected:
      "credentials: a non-empty array of {credential} objects, at most one per proof; notification_id a string when present; no transaction_id",
    actual: problems.join("; "),
    res: r.res,
    // No credentials member at all, or one that is no array; the other problems read from the text.
    ...(list === undefined
      ? { kind: "missing" as const }
      : !Array.isArray(list)
        ? { kind: "malformed" as const }
        : {}),
  });
  await judgeCredentials(c, {
    id: s.id,
    conf: s.conf,
    values: credentialValues(r.body),
    res: r.res,
    key: bound ? key : "unbound",
    keysOf,
  });
}

/**
 * A fresh token asked with authorization_details for `id` (pre-authorized Token Request),
 * and a credential_identifier from its response; a reason instead when there is none.
 */
async function identifierSession(
  v: Vci,
  id: string,
): Promise<{ token: string; identifier: string } | string> {
  const o = await v.offer("preAuthorized");
  if (o.shape.txCodeRequired && o.txCode === undefined)
    return "the offer needs a tx_code the profile's source did not give";
  const res = await v.token(
    v.preAuthorizedForm(o, { authorization_details: await v.authorizationDetails(id) }),
    "token request with authorization_details",
  );
  const token = body(res).access_token;
  if (res.status !== 200 || typeof token !== "string")
    return `the token request with authorization_details answered ${said(res)}`;
  const identifier = v.identifiers(res, id)[0];
  if (identifier === undefined)
    return "the Token Response to a request with authorization_details has no credential_identifiers (see VCI-TOKEN-AUTH-DETAILS), so the issuer takes no credential_identifier";
  return { token, identifier };
}

/** specs/000 Credential Endpoint, Credential Request and Response; public §8.2, §8.3, §8.3.1. */
export const credentialChecks = [
  defineCheck<VciProfile>({
    id: "vci.credential-issue",
    title:
      "a Credential Request with a valid jwt proof is answered 200 with credentials of the configuration's format, bound to the proof's key and signed by the issuer",
    requirements: [
      "VCI-CRED-ISSUE",
      "VCI-CRED-RESPONSE-SHAPE",
      "VCI-CRED-FORMAT",
      "VCI-CRED-BOUND-TO-PROOF",
      "VCI-CRED-SIGNATURE",
    ],
    async run(c) {
      const v = new Vci(c);
      const issuerKeysOnce = issuerKeyCache(c);
      const first = await session(v, { usesFixed: true });
      await issueAndJudge(c, v, first, true, issuerKeysOnce);
      // Every other configuration of the offer, each on a token of its own (a fixed offer gives one token only).
      if (c.profile.offers.fixed) {
        if (first.ids.length > 1)
          c.note(`a fixed offer: only ${first.id} of ${first.ids.join(", ")} was requested`);
        return;
      }
      for (const id of first.ids.slice(1))
        await issueAndJudge(c, v, await session(v, { configuration: id }), false, issuerKeysOnce);
    },
  }),
  defineCheck<VciProfile>({
    id: "vci.credential-token-reuse",
    title: "the same access token serves a second Credential Request (an issuer may also stop accepting it)",
    requirements: ["VCI-CRED-TOKEN-REUSE"],
    async run(c) {
      const v = new Vci(c);
      const s = await session(v);
      const one = await v.credential(s.token, await goodRequest(v, s, await v.keyFor(s.conf)), {
        label: "first credential request",
      });
      if (one.res.status !== 200)
        c.skip(`the first Credential Request answered ${said(one.res)}: see VCI-CRED-ISSUE`, "dependency");
      const two = await v.credential(s.token, await goodRequest(v, s, await v.keyFor(s.conf)), {
        label: "second credential request, same access token",
      });
      c.check("VCI-CRED-TOKEN-REUSE", two.res.status === 200, {
        expected: "200 for a second Credential Request with the same access token (new key, new nonce)",
        actual: said(two.res),
        res: two.res,
        kind: "wrong-status",
      });
    },
  }),
  defineCheck<VciProfile>({
    id: "vci.credential-ignore-unknown",
    title: "an unknown member in a Credential Request is ignored",
    requirements: ["VCI-CRED-IGNORE-UNKNOWN"],
    async run(c) {
      const v = new Vci(c);
      const s = await session(v);
      const req = {
        ...(await goodRequest(v, s, await v.keyFor(s.conf))),
        idconform_unknown_member: { note: "an extension this issuer does not know" },
      };
      const r = await v.credential(s.token, req, { label: "credential request with an unknown member" });
      // A refusal counts only if the same request without the member succeeds.
      if (r.res.status !== 200) await baseline(v);
      c.check("VCI-CRED-IGNORE-UNKNOWN", r.res.status === 200, {
        expected:
          "200: the unknown member idconform_unknown_member is ignored (the same request without it succeeds)",
        actual: said(r.res),
        res: r.res,
        kind: "wrong-status",
      });
    },
  }),
  defineCheck<VciProfile>({
    id: "vci.credential-request-errors",
    title:
      "an unknown configuration, an unknown identifier, or an identifier together with a configuration id (also a made-up identifier on a token given none) are refused with 400 and their own error code",
    requirements: ["VCI-CRED-UNKNOWN-CONFIG", "VCI-CRED-ID-EXCLUSIVE", "VCI-CRED-UNKNOWN-ID"],
    async run(c) {
      const v = new Vci(c);
      const base = await baseline(v);
      // An unknown credential_configuration_id means something only on a token whose Token
      // Response gave no credential_identifiers (else the id MUST NOT be used at all), with a
      // baseline that named its configuration by id and succeeded.
      const s = await session(v);
      if (v.identifiers(base.tokenRes).length > 0 || v.identifiers(s.tokenRes).length > 0)
        c.skipOnly(
          "VCI-CRED-UNKNOWN-CONFIG",
          "the Token Response to a pre-authorized Token Request without authorization_details carries credential_identifiers, so credential_configuration_id MUST NOT be used with its token, and the Wallet has no other way to a token without them",
          "other",
        );
      else {
        const p = await goodRequest(v, s, await v.keyFor(s.conf));
        const unknownConf = await v.credential(
          s.token,
          {
            credential_configuration_id: stranger("idconform-unknown-configuration"),
            ...(p.proofs !== undefined ? { proofs: p.proofs } : {}),
          },
          { label: "unknown credential_configuration_id" },
        );
        c.check(
          "VCI-CRED-UNKNOWN-CONFIG",
          isError(unknownConf.res, 400, "unknown_credential_configuration"),
          refusal(
            unknownConf.res,
            "400 unknown_credential_configuration for a credential_configuration_id not in the metadata",
            "a request with an unknown credential_configuration_id",
          ),
        );
        // A token given no credential_identifiers was issued for none: any identifier is unknown to it
        // (or, as the identifier MUST NOT be used then, an invalid request).
        const p2 = await goodRequest(v, s, await v.keyFor(s.conf));
        const noIds = await v.credential(
          s.token,
          {
            credential_identifier: stranger("idconform-unknown-identifier"),
            ...(p2.proofs !== undefined ? { proofs: p2.proofs } : {}),
          },
          { label: "credential_identifier on a token given no credential_identifiers" },
        );
        c.check(
          "VCI-CRED-UNKNOWN-ID",
          isError(noIds.res, 400, "unknown_credential_identifier") ||
            isError(noIds.res, 400, "invalid_credential_request"),
          refusal(
            noIds.res,
            "400 unknown_credential_identifier (or invalid_credential_request) for a credential_identifier sent with a token that was given none",
            "a credential_identifier on a token given none",
          ),
        );
        // The pair is refused on a token given no identifiers too (an issuer must not read it as
        // the configuration id alone). The identifier is made up, so unknown_credential_identifier
        // is as right as invalid_credential_request: §8.3.1 ranks neither before the other.
        const p3 = await goodRequest(v, s, await v.keyFor(s.conf));
        const pair = await v.credential(
          s.token,
          {
            credential_identifier: stranger("idconform-unknown-identifier"),
            credential_configuration_id: s.id,
            ...(p3.proofs !== undefined ? { proofs: p3.proofs } : {}),
          },
          {
            label:
              "a made-up credential_identifier with credential_configuration_id, on a token given no credential_identifiers",
          },
        );
        c.check(
          "VCI-CRED-ID-EXCLUSIVE",
          isError(pair.res, 400, "invalid_credential_request") ||
            isError(pair.res, 400, "unknown_credential_identifier"),
          refusal(
            pair.res,
            "400 invalid_credential_request (or unknown_credential_identifier) for a made-up credential_identifier sent with credential_configuration_id on a token given no credential_identifiers",
            "a made-up credential_identifier with credential_configuration_id",
          ),
        );
      }
      const a = await identifierSession(v, base.id);
      if (typeof a === "string") {
        for (const id of ["VCI-CRED-ID-EXCLUSIVE", "VCI-CRED-UNKNOWN-ID"]) c.skipOnly(id, a, "dependency");
      } else {
        const proofs = async (): Promise<Json> => {
          const r = await goodRequest(v, base, await v.keyFor(base.conf));
          return r.proofs !== undefined ? { proofs: r.proofs } : {};
        };
        const good = await v.credential(
          a.token,
          { credential_identifier: a.identifier, ...(await proofs()) },
          {
            label: "credential request by credential_identifier (baseline)",
          },
        );
        if (good.res.status !== 200) {
          const why = `a valid request by credential_identifier answered ${said(good.res)}, so the refusals would prove nothing`;
          for (const id of ["VCI-CRED-ID-EXCLUSIVE", "VCI-CRED-UNKNOWN-ID"])
            c.skipOnly(id, why, "dependency");
        } else {
          const b = await identifierSession(v, base.id);
          if (typeof b === "string") c.skipOnly("VCI-CRED-ID-EXCLUSIVE", b, "dependency");
          else {
            const both = await v.credential(
              b.token,
              {
                credential_identifier: b.identifier,
                credential_configuration_id: base.id,
                ...(await proofs()),
              },
              { label: "credential_identifier and credential_configuration_id together" },
            );
            c.check(
              "VCI-CRED-ID-EXCLUSIVE",
              isError(both.res, 400, "invalid_credential_request"),
              refusal(
                both.res,
                "400 invalid_credential_request for a request with both credential_identifier and credential_configuration_id",
                "a request with both credential_identifier and credential_configuration_id",
              ),
            );
          }
          const d = await identifierSession(v, base.id);
          if (typeof d === "string") c.skipOnly("VCI-CRED-UNKNOWN-ID", d, "dependency");
          else {
            const unknownId = await v.credential(
              d.token,
              { credential_identifier: stranger("idconform-unknown-identifier"), ...(await proofs()) },
              { label: "unknown credential_identifier" },
            );
            c.check(
              "VCI-CRED-UNKNOWN-ID",
              isError(unknownId.res, 400, "unknown_credential_identifier"),
              refusal(
                unknownId.res,
                "400 unknown_credential_identifier for a credential_identifier the token was not issued for",
                "an unknown credential_identifier",
              ),
            );
            // Identifiers name datasets issuable "with this access token" (Token Response): one
            // given with another token is unknown to this one, or any token reaches any dataset.
            if (a.identifier === d.identifier)
              c.note(
                "two access tokens were given the same credential_identifier; one token's identifier could not be sent with another",
              );
            else {
              const foreign = await v.credential(
                d.token,
                { credential_identifier: a.identifier, ...(await proofs()) },
                { label: "credential_identifier of another access token" },
              );
              c.check(
                "VCI-CRED-UNKNOWN-ID",
                isError(foreign.res, 400, "unknown_credential_identifier"),
                refusal(
                  foreign.res,
                  "400 unknown_credential_identifier for a credential_identifier given with another access token",
                  "the credential_identifier of another access token",
                ),
              );
            }
          }
        }
      }
    },
  }),
  defineCheck<VciProfile>({
    id: "vci.credential-bearer",
    title:
      "a Credential Request without an access token, or with one the issuer never issued, is refused with 401 and a WWW-Authenticate challenge",
    requirements: ["VCI-CRED-BEARER-401", "VCI-CRED-BAD-TOKEN"],
    async run(c) {
      const v = new Vci(c);
      const s = await baseline(v);
      const none = await v.credential(undefined, await goodRequest(v, s, await v.keyFor(s.conf)), {
        label: "credential request without an access token",
      });
      const challenge = none.res.header("www-authenticate") ?? "";
      c.check("VCI-CRED-BEARER-401", none.res.status === 401 && BEARER_CHALLENGE.test(challenge), {
        expected: "401 with WWW-Authenticate: Bearer ...",
        actual: `${said(none.res)}; WWW-Authenticate ${challenge ? challenge.slice(0, 120) : "absent"}`,
        res: none.res,
        kind: challengeKind(none.res),
      });
      const forged = stranger("idc");
      c.secret(forged, "UNKNOWN_ACCESS_TOKEN");
      const bad = await v.credential(forged, await goodRequest(v, s, await v.keyFor(s.conf)), {
        label: "credential request with an access token never issued",
      });
      const badChallenge = bad.res.header("www-authenticate") ?? "";
      c.check("VCI-CRED-BAD-TOKEN", bad.res.status === 401 && badChallenge.trim() !== "", {
        expected: '401 with WWW-Authenticate (RFC 6750: Bearer error="invalid_token")',
        actual: `${said(bad.res)}; WWW-Authenticate ${badChallenge ? badChallenge.slice(0, 120) : "absent"}`,
        res: bad.res,
        kind: challengeKind(bad.res),
      });
      if (bad.res.status === 401 && !/invalid_token/.test(badChallenge))
        c.note('the 401 for an unknown token does not say error="invalid_token" in its challenge');
    },
  }),
  // A check of its own, so the verdicts of vci.credential-bearer stay as they are.
  defineCheck<VciProfile>({
    id: "vci.credential-bearer-syntax",
    title:
      "the Credential Endpoint takes the Bearer scheme in any case and with several spaces, refuses a header with more after the token, and answers a request without Bearer credentials with a challenge that names no error",
    requirements: ["VCI-CRED-BEARER-SYNTAX"],
    async run(c) {
      const v = new Vci(c);
      await baseline(v);
      // Each variant on a fresh access token: an issuer may stop accepting a used one (Rules 9).
      for (const [scheme, spaces] of [
        ["bearer", " "],
        ["BEARER", " "],
        ["Bearer", "   "],
      ] as const) {
        const s = await session(v);
        const header = `${scheme}${spaces}${s.token}`;
        const r = await v.credential(s.token, await goodRequest(v, s, await v.keyFor(s.conf)), {
          authorization: header,
          label: `credential request with Authorization: ${scheme}${spaces === " " ? " " : " (3 spaces) "}<token>`,
        });
        c.check("VCI-CRED-BEARER-SYNTAX", r.res.status === 200, {
          expected: `200: the auth-scheme is case-insensitive (RFC 7235 §2.1) and "Bearer" 1*SP b64token (RFC 6750 §2.1) allows ${spaces.length} space(s)`,
          actual: said(r.res),
          res: r.res,
          kind: "wrong-status",
        });
      }
      const s = await session(v);
      const trailing = await v.credential(s.token, await goodRequest(v, s, await v.keyFor(s.conf)), {
        authorization: `Bearer ${s.token} ${stranger("x")}`,
        label: "credential request with Authorization: Bearer <token> <more>",
      });
      c.check("VCI-CRED-BEARER-SYNTAX", trailing.res.status === 400 || trailing.res.status === 401, {
        expected:
          "400 or 401: a header with more after the token is no Bearer credential (RFC 6750 §2.1, §3.1)",
        actual: said(trailing.res),
        res: trailing.res,
        // 400 and 401 meet it: a 2xx took the header as a credential, anything else is another status.
        kind: refusalKind(trailing.res),
      });
      for (const [what, authorization] of [
        ["without an access token", undefined],
        ["with Basic credentials", `Basic ${Buffer.from("wallet:secret").toString("base64")}`],
      ] as const) {
        const r = await v.credential(undefined, await goodRequest(v, s, await v.keyFor(s.conf)), {
          ...(authorization !== undefined ? { authorization } : {}),
          label: `credential request ${what}`,
        });
        const challenge = r.res.header("www-authenticate") ?? "";
        // Status and challenge of a request without any credentials are VCI-CRED-BEARER-401's.
        if (authorization === undefined && !(r.res.status === 401 && BEARER_CHALLENGE.test(challenge)))
          continue;
        c.check(
          "VCI-CRED-BEARER-SYNTAX",
          r.res.status === 401 && BEARER_CHALLENGE.test(challenge) && !/\berror\s*=/i.test(challenge),
          {
            expected:
              "401 with a Bearer challenge naming no error (RFC 6750 §3: a challenge when no access token is given; §3.1: no error code when the request has no authentication information or another method)",
            actual: `${said(r.res)}; WWW-Authenticate ${challenge ? challenge.slice(0, 120) : "absent"}`,
            res: r.res,
            kind: challengeKind(r.res),
          },
        );
      }
    },
  }),
];
