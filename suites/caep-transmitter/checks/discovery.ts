import { importJWK, type JWK } from "jose";
import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import {
  DELIVERY_POLL,
  DELIVERY_PUSH,
  SSF_WELL_KNOWN,
  ssfConfigurationUrl,
} from "../../../src/protocols/caep.js";
import { ENDPOINTS, methodUrn } from "../client.js";
import type { CaepTransmitterProfile } from "../profile.js";

type Ctx = CheckContext<CaepTransmitterProfile>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** What the Transmitter answered, in a few words. */
const said = (res: HttpResponse): string =>
  `${res.status}${res.text === "" ? "" : ` ${quote(res.text, 120)}`}`;

/** Reads the discovery document in this check (its own evidence), or stops: nothing else can be judged. */
async function document(c: Ctx): Promise<{ url: string; doc: Record<string, unknown>; res: HttpResponse }> {
  const url = ssfConfigurationUrl(c.profile.baseUrl);
  const res = await c.http.get(url, { label: "discovery", tags: ["discovery"] });
  if (res.status !== 200 || !isObject(res.json))
    c.skip(
      `the discovery document at ${url} could not be read (answered ${res.status}; see CAEPT-DISC-WELL-KNOWN)`,
      "dependency",
    );
  return { url, doc: res.json, res };
}

/**
 * What is wrong with a URL the discovery document gives (SSF §7.1: "MUST use HTTP over TLS"):
 * `undefined` when it is an absolute https URL; `plain` when it is plain http (judged only when
 * the run does not allow plain http).
 */
function urlProblem(v: unknown): string | "plain" | undefined {
  if (typeof v !== "string" || !URL.canParse(v)) return `${quote(v ?? null, 120)} is not an absolute URL`;
  const u = new URL(v);
  if (u.protocol === "http:") return "plain";
  if (u.protocol !== "https:") return `${quote(v, 120)} is not an https URL`;
  return undefined;
}

/** The usual JWS algorithm of a public key that names none (for the import test). */
function algFor(jwk: Record<string, unknown>): string | undefined {
  if (jwk.kty === "RSA") return "RS256";
  if (jwk.kty === "EC")
    return ({ "P-256": "ES256", "P-384": "ES384", "P-521": "ES512" } as Record<string, string>)[
      String(jwk.crv)
    ];
  if (jwk.kty === "OKP" && jwk.crv === "Ed25519") return "EdDSA";
  return undefined;
}

/** RFC 8141 §2: urn:<NID>:<NSS>. */
const URN = /^urn:[A-Za-z0-9][A-Za-z0-9-]{0,30}[A-Za-z0-9]:\S+$/i;

const PRIVATE = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

/** What is wrong with one published key (RFC 7517; SSF §4.1.4: the keys Receivers verify SETs with). */
async function keyProblem(k: unknown, i: number, many: boolean): Promise<string | undefined> {
  const at = `keys[${i}]`;
  if (!isObject(k)) return `${at} is not a JSON object`;
  const secret = PRIVATE.filter((m) => k[m] !== undefined);
  if (secret.length > 0)
    return `${at} publishes private or symmetric key material (${secret.join(", ")}): a JWK Set at jwks_uri holds public keys only`;
  if (many && (typeof k.kid !== "string" || k.kid === ""))
    return `${at} has no kid, though the set holds several keys: a Receiver cannot tell which verifies a SET`;
  if (k.use !== undefined && k.use !== "sig") return `${at} has use ${quote(k.use)}, not "sig"`;
  const alg = typeof k.alg === "string" ? k.alg : algFor(k);
  if (alg === undefined) return `${at} (kty ${quote(k.kty ?? null)}) is no key a SET can be verified with`;
  if (/^HS\d+$|^none$/i.test(alg)) return `${at} has alg ${quote(alg)}: SETs are verified with public keys`;
  try {
    await importJWK({ ...(k as JWK), ext: true }, alg);
  } catch (e) {
    return `${at} cannot be used as a ${alg} key (kty ${quote(k.kty ?? null)}${k.crv !== undefined ? `, crv ${quote(k.crv)}` : ""}): ${(e as Error).message}`;
  }
  // jose imports an EC key for an RSA alg only to fail at verify time: check the family too.
  const family =
    alg.startsWith("RS") || alg.startsWith("PS")
      ? "RSA"
      : alg.startsWith("ES")
        ? "EC"
        : alg === "EdDSA" || alg === "Ed25519"
          ? "OKP"
          : undefined;
  if (family !== undefined && k.kty !== family)
    return `${at} says alg ${alg}, but it is a ${quote(k.kty ?? null)} key (a ${alg} key is ${family})`;
  if (alg.startsWith("ES") && algFor(k) !== alg)
    return `${at} says alg ${alg}, but its curve ${quote(k.crv ?? null)} signs ${algFor(k) ?? "no ES algorithm"}`;
  return undefined;
}

export const discoveryChecks = [
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.discovery-well-known",
    title:
      "the Transmitter Configuration Metadata is served at the issuer with /.well-known/ssf-configuration inserted after the host, 200 application/json (SSF 1.0 §7.2, §7.2.2)",
    requirements: ["CAEPT-DISC-WELL-KNOWN"],
    async run(c) {
      const url = ssfConfigurationUrl(c.profile.baseUrl);
      const res = await c.http.get(url, { label: "discovery", tags: ["discovery"] });
      if (res.status !== 200) {
        // Where an implementer who appended the segment serves it: said in the finding, not judged.
        const issuer = new URL(c.profile.baseUrl);
        let also = "";
        if (issuer.pathname !== "/" && issuer.pathname !== "") {
          const appended = `${c.profile.baseUrl.replace(/\/$/, "")}${SSF_WELL_KNOWN}`;
          const a = await c.http.get(appended, { label: "discovery at the appended path (for the finding)" });
          if (a.status === 200 && isObject(a.json))
            also = `; the document is served at ${appended} instead (the segment appended to the issuer's path, not inserted after the host)`;
        }
        c.require("CAEPT-DISC-WELL-KNOWN", false, {
          expected: `200 with the configuration at ${url}`,
          actual: `${said(res)}${also}`,
          res,
          kind: "wrong-status",
        });
      }
      const type = res.header("content-type");
      c.check("CAEPT-DISC-WELL-KNOWN", /^application\/json\s*(;|$)/i.test(type ?? ""), {
        expected: "Content-Type: application/json",
        actual: type ?? "no Content-Type",
        res,
        kind: type === undefined ? "missing" : "wrong-value",
      });
      c.check("CAEPT-DISC-WELL-KNOWN", isObject(res.json), {
        expected: "a JSON object of Transmitter Configuration Metadata",
        actual:
          res.jsonError !== undefined
            ? `not JSON: ${res.jsonError}`
            : `a JSON ${Array.isArray(res.json) ? "array" : typeof res.json}`,
        res,
        kind: "malformed",
      });
    },
  }),
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.discovery-metadata",
    title:
      "the metadata names the issuer used, spec_version 1_0, the RFC 8935/8936 delivery method URNs, every stream management endpoint as https URLs, default_subjects ALL or NONE and authorization_schemes with spec_urn URNs (SSF 1.0 §7.1, §7.1.1, §7.2.3)",
    requirements: [
      "CAEPT-DISC-ISSUER",
      "CAEPT-DISC-SPEC-VERSION",
      "CAEPT-DISC-DELIVERY-METHODS",
      "CAEPT-DISC-ENDPOINTS",
      "CAEPT-DISC-OPTIONAL-MEMBERS",
    ],
    async run(c) {
      const { doc, res } = await document(c);
      const issuer = c.profile.baseUrl;
      c.check("CAEPT-DISC-ISSUER", doc.issuer === issuer, {
        message: "the metadata's issuer is not the issuer URL the document was read from",
        expected: `issuer ${quote(issuer)} (identical to the URL used)`,
        actual: `issuer ${quote(doc.issuer)}`,
        res,
        kind: doc.issuer === undefined ? "missing" : "wrong-value",
      });
      const u = new URL(issuer);
      c.check("CAEPT-DISC-ISSUER", u.search === "" && u.hash === "", {
        expected: "an issuer with no query or fragment component",
        actual: quote(issuer),
        res,
      });
      // A plain http baseUrl only loads under options.allowInsecureHttp (profile.ts refuses it
      // otherwise), which the catalog lets the issuer be; the run is then not certifiable.
      if (u.protocol === "http:")
        c.note(`plain http issuer, allowed by options.allowInsecureHttp (${issuer})`);

      c.check("CAEPT-DISC-SPEC-VERSION", doc.spec_version === "1_0", {
        message:
          doc.spec_version === undefined
            ? "no spec_version: the Transmitter is then taken to implement the 1_0-ID1 draft"
            : "spec_version names another version than the final SSF 1.0",
        expected: 'spec_version "1_0"',
        actual: `spec_version ${quote(doc.spec_version)}`,
        res,
        kind: doc.spec_version === undefined ? "missing" : "wrong-value",
      });

      const methods = doc.delivery_methods_supported;
      const list = Array.isArray(methods) ? methods : undefined;
      const known = [DELIVERY_PUSH, DELIVERY_POLL];
      if (
        list === undefined ||
        list.length === 0 ||
        !list.every((m) => typeof m === "string" && URL.canParse(m))
      )
        c.check("CAEPT-DISC-DELIVERY-METHODS", false, {
          expected: "delivery_methods_supported: a non-empty array of delivery method URIs",
          actual: `delivery_methods_supported ${quote(methods)}`,
          res,
          kind: methods === undefined ? "missing" : "malformed",
        });
      else {
        c.check(
          "CAEPT-DISC-DELIVERY-METHODS",
          list.some((m) => known.includes(m as string)),
          {
            message: "no delivery method of SSF 1.0 is offered",
            expected: `delivery_methods_supported with ${DELIVERY_PUSH} (push) or ${DELIVERY_POLL} (poll)`,
            actual: `delivery_methods_supported ${quote(list)}`,
            res,
          },
        );
        for (const m of c.profile.delivery ?? [])
          c.check("CAEPT-DISC-DELIVERY-METHODS", list.includes(methodUrn(m)), {
            message: `the profile tests ${m} delivery, which the metadata does not offer`,
            expected: `delivery_methods_supported with ${methodUrn(m)}`,
            actual: `delivery_methods_supported ${quote(list)}`,
            res,
          });
      }

      const plain: string[] = [];
      // SSF §7.1 makes each endpoint optional: one the metadata does not name is a part of the
      // API the Transmitter does not offer (its checks say so), not a defect of the metadata.
      const absent = ENDPOINTS.filter((name) => doc[name] === undefined);
      if (absent.length > 0) c.note(`not offered (not named in the metadata): ${absent.join(", ")}`);
      if (absent.length === ENDPOINTS.length)
        c.skipOnly("CAEPT-DISC-ENDPOINTS", "the metadata names no stream management endpoint", "not-offered");
      for (const name of ENDPOINTS) {
        const v = doc[name];
        if (v === undefined) continue;
        const p = urlProblem(v);
        if (p === "plain") {
          if (c.http.allowsPlainHttp) {
            plain.push(name);
            c.check("CAEPT-DISC-ENDPOINTS", true);
          } else
            c.check("CAEPT-DISC-ENDPOINTS", false, {
              expected: `${name}: an https URL`,
              actual: `${name} ${quote(v)}`,
              res,
            });
          continue;
        }
        c.check("CAEPT-DISC-ENDPOINTS", p === undefined, {
          message: `${name} is not usable`,
          expected: `${name}: an absolute https URL`,
          actual: p ?? "",
          res,
          kind: "malformed",
        });
      }
      if (plain.length > 0)
        c.note(`plain http endpoints, allowed by options.allowInsecureHttp: ${plain.join(", ")}`);

      const O = "CAEPT-DISC-OPTIONAL-MEMBERS";
      if (doc.default_subjects === undefined && doc.authorization_schemes === undefined)
        c.skipOnly(
          O,
          "not offered: the metadata has neither default_subjects nor authorization_schemes",
          "not-offered",
        );
      if (doc.default_subjects !== undefined)
        c.check(O, doc.default_subjects === "ALL" || doc.default_subjects === "NONE", {
          message: 'default_subjects is neither "ALL" nor "NONE"',
          expected: 'default_subjects "ALL" or "NONE" (SSF 1.0 §7.1: MUST be either)',
          actual: `default_subjects ${quote(doc.default_subjects, 120)}`,
          res,
          kind: "wrong-value",
        });
      if (doc.authorization_schemes !== undefined) {
        const schemes = doc.authorization_schemes;
        const bad = Array.isArray(schemes)
          ? schemes.find((x) => !isObject(x) || typeof x.spec_urn !== "string" || !URN.test(x.spec_urn))
          : schemes;
        c.check(O, Array.isArray(schemes) && bad === undefined, {
          message: Array.isArray(schemes)
            ? "an authorization_schemes entry has no spec_urn that is a URN"
            : "authorization_schemes is not an array",
          expected:
            'authorization_schemes an array of objects, each with spec_urn a URN (SSF 1.0 §7.1.1: REQUIRED), for example {"spec_urn": "urn:ietf:rfc:6750"}',
          actual: Array.isArray(schemes)
            ? `entry ${quote(bad, 200)}`
            : `authorization_schemes ${quote(schemes, 200)}`,
          res,
          kind: "malformed",
        });
      }
    },
  }),
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.discovery-jwks",
    title:
      "jwks_uri is an https URL serving a JWK Set of usable public signing keys: kid when several, alg fitting the key, no private members (SSF 1.0 §7.1, §4.1.4; RFC 7517)",
    requirements: ["CAEPT-DISC-JWKS"],
    async run(c) {
      const { doc, res } = await document(c);
      const uri = doc.jwks_uri;
      const p = urlProblem(uri);
      if (p !== undefined && p !== "plain")
        c.require("CAEPT-DISC-JWKS", false, {
          message:
            uri === undefined
              ? "the metadata names no jwks_uri, so no SET can be verified"
              : "jwks_uri is not usable",
          expected: "jwks_uri: an absolute https URL",
          actual: uri === undefined ? "jwks_uri absent" : p,
          res,
          kind: uri === undefined ? "missing" : "malformed",
        });
      if (p === "plain") {
        if (c.http.allowsPlainHttp)
          c.note(`plain http jwks_uri, allowed by options.allowInsecureHttp (${String(uri)})`);
        else
          c.require("CAEPT-DISC-JWKS", false, {
            expected: "jwks_uri: an https URL",
            actual: `jwks_uri ${quote(uri)}`,
            res,
          });
      }
      const k = await c.http.get(uri as string, { label: "jwks_uri", tags: ["jwks"] });
      c.require("CAEPT-DISC-JWKS", k.status === 200, {
        expected: `200 with a JWK Set at ${String(uri)}`,
        actual: said(k),
        res: k,
        kind: "wrong-status",
      });
      const set = c.json<unknown>("CAEPT-DISC-JWKS", k);
      const keys = isObject(set) ? set.keys : undefined;
      c.require("CAEPT-DISC-JWKS", Array.isArray(keys) && keys.length > 0, {
        expected: 'a JWK Set: {"keys": [at least one key]}',
        actual: quote(set, 160),
        res: k,
        kind: Array.isArray(keys) ? "missing" : "malformed",
      });
      const all = (keys as unknown[]).slice(0, 50);
      if ((keys as unknown[]).length > 50)
        c.note(`jwks_uri serves ${(keys as unknown[]).length} keys; the first 50 are judged`);
      const many = all.length > 1;
      await c.each("CAEPT-DISC-JWKS", all, "published keys", async (key, i) => {
        const problem = await keyProblem(key, i, many);
        return problem === undefined
          ? undefined
          : {
              message: problem,
              expected: "a public signing key a Receiver can verify SETs with",
              // Never the private members a broken key set may carry.
              actual: quote(
                isObject(key)
                  ? Object.fromEntries(Object.entries(key).filter(([m]) => !PRIVATE.includes(m)))
                  : key,
                200,
              ),
              res: k,
              kind: /no kid|private/.test(problem)
                ? /private/.test(problem)
                  ? "wrong-value"
                  : "missing"
                : "wrong-value",
            };
      });
    },
  }),
];
