import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from "jose";
import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import { AS_WELL_KNOWN, PRE_AUTHORIZED_GRANT, wellKnownUrl } from "../../../src/protocols/vci.js";
import type { VciProfile } from "../profile.js";
import {
  body,
  isJsonType,
  isJwtType,
  isObject,
  judgeHttps,
  PLAIN_HTTP_ALLOWED,
  said,
  schemeOf,
  Vci,
  type Json,
  noProblems,
  problem,
  type Ctx,
  type Problem,
} from "../client.js";

const ENDPOINTS = [
  "credential_endpoint",
  "nonce_endpoint",
  "deferred_credential_endpoint",
  "notification_endpoint",
];
const BINDING = /^(jwk|cose_key|did:[a-z0-9]+)$/;
const MAC = /^HS\d+$/;
/** A well-formed language tag (RFC 5646 §2.1, loosely: subtags of 1 to 8 letters or digits). */
const LANGUAGE_TAG = /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/i;

/**
 * Accept headers that do not prefer signed metadata (RFC 9110 §12.5.1: q=0 is "not acceptable",
 * the most specific range gives a type its weight): each gets JSON, never application/jwt.
 */
const PREFER_JSON = [
  "application/jwt;q=0, application/json",
  "application/jwt;q=0, text/plain",
  "application/json, application/jwt;q=0.5",
  "application/jwt;q=0.5, application/json;q=0.8",
  "application/jwt;q=0.5, */*",
  "application/jwt;q=0.5, application/*",
  "application/jwt;q=0.2, application/*;q=0.8, */*;q=0.1",
];

/** Accept headers that prefer application/jwt: an issuer offering signed metadata answers each with it. */
const PREFER_JWT = [
  "application/json;q=0.5, application/jwt",
  "application/jwt;q=0.9, application/json;q=0.5",
  "application/jwt;q=0.5, text/plain",
  "text/plain, application/jwt;q=0.5",
  "application/jwt, */*;q=0.1",
  "*/*;q=0.1, application/jwt",
  "Application/JWT",
];

/** Whether a response body is a compact JWS (signed metadata, whatever its Content-Type). */
const looksSigned = (text: string): boolean => /^[\w-]+\.[\w-]*\.[\w-]*$/.test(text.trim());

/** Whether a body (or its kept start) begins as a compact JWS does, not as JSON. */
const startsSigned = (text: string): boolean => /^\s*[\w-]+\.[\w-]/.test(text);

/** Whether a Vary header names Accept (or is `*`), RFC 9110 §12.5.5. */
const variesOnAccept = (vary: string | undefined): boolean =>
  (vary ?? "").split(",").some((t) => ["accept", "*"].includes(t.trim().toLowerCase()));

const nonEmptyStrings = (v: unknown): boolean =>
  Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string");

/** Locales used twice in a display array (one object per language). */
function duplicateLocales(display: unknown): string[] {
  if (!Array.isArray(display)) return [];
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const d of display) {
    const l = isObject(d) ? d.locale : undefined;
    if (typeof l !== "string") continue;
    const key = l.toLowerCase();
    if (seen.has(key)) twice.add(l);
    seen.add(key);
  }
  return [...twice];
}

/** A member that must be a string: absent, or present as another JSON type. */
const notString = (v: unknown): Problem["kind"] => (v === undefined ? "missing" : "malformed");

/** Shape problems of a display array: non-empty, names where required, a uri in every image. */
function displayProblems(where: string, display: unknown, nameRequired: boolean): Problem[] {
  if (display === undefined) return [];
  if (!Array.isArray(display) || display.length === 0)
    return [
      problem(Array.isArray(display) ? "wrong-value" : "malformed", `${where} is not a non-empty array`),
    ];
  const out: Problem[] = [];
  display.forEach((d, i) => {
    if (!isObject(d)) return void out.push(problem("malformed", `${where}[${i}] is not an object`));
    if (nameRequired ? typeof d.name !== "string" : d.name !== undefined && typeof d.name !== "string")
      out.push(
        problem(notString(d.name), `${where}[${i}].name is ${nameRequired ? "missing or " : ""}not a string`),
      );
    if (d.locale !== undefined && !(typeof d.locale === "string" && LANGUAGE_TAG.test(d.locale)))
      out.push(problem("malformed", `${where}[${i}].locale ${quote(d.locale)} is not a language tag`));
    for (const color of ["background_color", "text_color"])
      if (d[color] !== undefined && !(typeof d[color] === "string" && d[color].trim() !== ""))
        out.push(problem("malformed", `${where}[${i}].${color} ${quote(d[color])} is not a color value`));
    for (const img of ["logo", "background_image"]) {
      const o = d[img];
      if (o !== undefined && !(isObject(o) && typeof o.uri === "string"))
        out.push(
          problem(isObject(o) ? notString(o.uri) : "malformed", `${where}[${i}].${img} has no uri string`),
        );
      else if (o !== undefined && !URL.canParse(o.uri as string))
        out.push(problem("malformed", `${where}[${i}].${img}.uri ${quote(o.uri)} is not a URI`));
    }
  });
  return out;
}

/** A claim path element: a name, an array index or null (all elements of an array). */
const pathElement = (e: unknown): boolean =>
  typeof e === "string" || e === null || (Number.isInteger(e) && (e as number) >= 0);

/** Shape problems of credential_metadata.claims: non-empty, each an object with a path and a well-formed display. */
function claimsProblems(where: string, claims: unknown): Problem[] {
  if (claims === undefined) return [];
  if (!Array.isArray(claims) || claims.length === 0)
    return [
      problem(Array.isArray(claims) ? "wrong-value" : "malformed", `${where} is not a non-empty array`),
    ];
  return claims.flatMap((cl, i) => {
    if (!isObject(cl)) return [problem("malformed", `${where}[${i}] is not an object`)];
    const path = cl.path;
    const kind =
      path === undefined ? "missing" : Array.isArray(path) && path.length === 0 ? "wrong-value" : "malformed";
    const out =
      Array.isArray(path) && path.length > 0 && path.every(pathElement)
        ? []
        : [
            problem(
              kind,
              `${where}[${i}].path ${quote(path ?? null)} is not a non-empty array of path elements`,
            ),
          ];
    return [...out, ...displayProblems(`${where}[${i}].display`, cl.display, false)];
  });
}

/** A member that must be a non-empty array of strings: absent, empty, or of another shape. */
const notNames = (v: unknown): Problem["kind"] =>
  v === undefined ? "missing" : Array.isArray(v) && v.length === 0 ? "wrong-value" : "malformed";

function encryptionProblems(m: Json): Problem[] {
  const out: Problem[] = [];
  const notBoolean = (v: unknown): Problem["kind"] => (v === undefined ? "missing" : "malformed");
  const res = m.credential_response_encryption;
  if (res !== undefined) {
    if (!isObject(res)) out.push(problem("malformed", "credential_response_encryption is not an object"));
    else {
      if (!nonEmptyStrings(res.alg_values_supported))
        out.push(
          problem(
            notNames(res.alg_values_supported),
            "credential_response_encryption.alg_values_supported is not a non-empty array",
          ),
        );
      if (!nonEmptyStrings(res.enc_values_supported))
        out.push(
          problem(
            notNames(res.enc_values_supported),
            "credential_response_encryption.enc_values_supported is not a non-empty array",
          ),
        );
      if (typeof res.encryption_required !== "boolean")
        out.push(
          problem(
            notBoolean(res.encryption_required),
            "credential_response_encryption.encryption_required is not a boolean",
          ),
        );
    }
  }
  const req = m.credential_request_encryption;
  if (req !== undefined) {
    if (!isObject(req)) out.push(problem("malformed", "credential_request_encryption is not an object"));
    else {
      const keys = isObject(req.jwks) ? req.jwks.keys : undefined;
      if (!Array.isArray(keys))
        out.push(
          problem(
            req.jwks === undefined || (isObject(req.jwks) && keys === undefined) ? "missing" : "malformed",
            "credential_request_encryption.jwks has no keys array",
          ),
        );
      else {
        const kids = keys.map((k) => (isObject(k) ? k.kid : undefined));
        if (kids.some((k) => typeof k !== "string"))
          out.push(
            problem(
              kids.some((k) => k === undefined) ? "missing" : "malformed",
              "a credential_request_encryption key has no kid",
            ),
          );
        if (new Set(kids).size !== kids.length)
          out.push(problem("wrong-value", "credential_request_encryption kids are not unique"));
      }
      if (!nonEmptyStrings(req.enc_values_supported))
        out.push(
          problem(
            notNames(req.enc_values_supported),
            "credential_request_encryption.enc_values_supported is not a non-empty array",
          ),
        );
      if (typeof req.encryption_required !== "boolean")
        out.push(
          problem(
            notBoolean(req.encryption_required),
            "credential_request_encryption.encryption_required is not a boolean",
          ),
        );
    }
  }
  return out;
}

/** RFC 8414 §2 / RFC 9396 §10 list members whose values are never empty lists of names. */
const AS_LISTS = [
  "response_types_supported",
  "grant_types_supported",
  "code_challenge_methods_supported",
  "token_endpoint_auth_methods_supported",
  "authorization_details_types_supported",
];

/** What an Authorization Server metadata document advertises wrongly (RFC 8414 §2, RFC 7636 §4.2). */
function asListProblems(b: Json, preAuthorized: boolean): string[] {
  const out: string[] = [];
  for (const k of AS_LISTS)
    if (b[k] !== undefined && !(nonEmptyStrings(b[k]) && (b[k] as string[]).every((x) => x !== "")))
      out.push(`${k} ${quote(b[k])} is not a non-empty array of names`);
  if (
    b.scopes_supported !== undefined &&
    !(Array.isArray(b.scopes_supported) && b.scopes_supported.every((x) => typeof x === "string" && x !== ""))
  )
    out.push(`scopes_supported ${quote(b.scopes_supported)} is not an array of scope values`);
  const has = (k: string, x: string): boolean => Array.isArray(b[k]) && (b[k] as unknown[]).includes(x);
  if (b.authorization_endpoint !== undefined && !has("response_types_supported", "code"))
    out.push(
      `an authorization_endpoint, but response_types_supported ${quote(b.response_types_supported ?? null)} lacks code`,
    );
  if (
    preAuthorized &&
    b.grant_types_supported !== undefined &&
    !has("grant_types_supported", PRE_AUTHORIZED_GRANT)
  )
    out.push(
      `the issuer makes pre-authorized offers, but grant_types_supported ${quote(b.grant_types_supported)} lacks ${PRE_AUTHORIZED_GRANT}`,
    );
  if (b.code_challenge_methods_supported !== undefined && !has("code_challenge_methods_supported", "S256"))
    out.push(
      `code_challenge_methods_supported ${quote(b.code_challenge_methods_supported)} lacks S256 (mandatory to implement)`,
    );
  return out;
}

/** specs/000 Endpoints: Credential Issuer Metadata endpoint; Resources: Credential Issuer Metadata. */
export const metadataChecks = [
  defineCheck<VciProfile>({
    id: "vci.metadata",
    title:
      "the issuer metadata is served as JSON at the well-known URL built from the identifier, names the identifier exactly, and has its required, https and well-formed members",
    requirements: [
      "VCI-META-WELL-KNOWN",
      "VCI-META-JSON",
      "VCI-META-ACCEPT",
      "VCI-META-ISSUER-MATCH",
      "VCI-META-REQUIRED",
      "VCI-META-HTTPS",
      "VCI-META-AUTH-SERVERS",
      "VCI-META-BATCH-SIZE",
      "VCI-META-DISPLAY-LOCALE",
      "VCI-META-DISPLAY-SHAPE",
      "VCI-META-ENCRYPTION-SHAPE",
    ],
    async run(c: Ctx) {
      const v = new Vci(c);
      const url = v.metadataUrl();
      const res = await c.http.get(url, {
        headers: { accept: "application/json", "accept-language": "en-US" },
        label: "issuer metadata",
      });
      c.require("VCI-META-WELL-KNOWN", res.status === 200, {
        expected: `200 at ${url} (the well-known segment inserted between host and path)`,
        actual: said(res),
        kind: "wrong-status",
      });
      c.check("VCI-META-ACCEPT", !isJwtType(res), {
        expected: "Accept: application/json answered with JSON, not signed metadata",
        actual: res.header("content-type") ?? "(no Content-Type)",
      });
      c.require("VCI-META-JSON", isJsonType(res) && isObject(res.json), {
        expected: "a JSON object with Content-Type application/json",
        actual: `${res.header("content-type") ?? "(no Content-Type)"}${isObject(res.json) ? "" : `, body ${res.jsonError ?? "not an object"}`}`,
        kind: !isObject(res.json)
          ? "malformed"
          : res.header("content-type") === undefined
            ? "missing"
            : "wrong-value",
      });
      const signed: string[] = [];
      for (const accept of PREFER_JSON) {
        const r = await c.http.get(url, {
          headers: { accept },
          label: "issuer metadata, JSON preferred",
          discardBody: true,
        });
        // Neither type acceptable (text/plain only): 406 or JSON (RFC 9110 §12.5.1), never the JWT.
        const jsonAcceptable = !accept.endsWith("text/plain");
        if ((jsonAcceptable && r.status !== 200) || isJwtType(r) || startsSigned(r.text))
          signed.push(`Accept ${accept}: ${said(r)}`);
      }
      c.check("VCI-META-ACCEPT", signed.length === 0, {
        expected:
          "no signed metadata for an Accept that does not prefer application/jwt (200 with JSON where JSON is acceptable)",
        actual: signed.join("; ") || "JSON each time",
      });
      const bare = await c.http.get(url, { label: "issuer metadata, no Accept", discardBody: true });
      c.check("VCI-META-WELL-KNOWN", bare.status === 200, {
        expected: `200 at ${url} without an Accept header (every type acceptable, RFC 9110 §12.5.1)`,
        actual: said(bare),
        kind: "wrong-status",
      });
      const m = body(res);
      c.check("VCI-META-ISSUER-MATCH", m.credential_issuer === v.issuer, {
        expected: `credential_issuer exactly ${JSON.stringify(v.issuer)}`,
        actual: quote(m.credential_issuer ?? null),
      });
      const confs = m.credential_configurations_supported;
      c.check(
        "VCI-META-REQUIRED",
        typeof m.credential_endpoint === "string" && isObject(confs) && Object.keys(confs).length > 0,
        {
          expected:
            "credential_endpoint (URL string) and a non-empty credential_configurations_supported object",
          actual: `credential_endpoint ${quote(m.credential_endpoint ?? null)}, credential_configurations_supported ${isObject(confs) ? `${Object.keys(confs).length} entries` : quote(confs ?? null)}`,
          kind:
            m.credential_endpoint === undefined || confs === undefined
              ? "missing"
              : typeof m.credential_endpoint !== "string" || !isObject(confs)
                ? "malformed"
                : "wrong-value",
        },
      );
      judgeHttps(
        c,
        "VCI-META-HTTPS",
        ENDPOINTS.filter((e) => m[e] !== undefined).map((e) => [e, m[e]] as const),
        "every endpoint URL https",
      );
      const servers = m.authorization_servers;
      if (servers !== undefined && !nonEmptyStrings(servers))
        c.check("VCI-META-AUTH-SERVERS", false, {
          expected: "authorization_servers absent, or a non-empty array of https identifiers",
          actual: quote(servers, 300),
          kind: notNames(servers),
        });
      else
        judgeHttps(
          c,
          "VCI-META-AUTH-SERVERS",
          ((servers as string[] | undefined) ?? []).map(
            (x, i) => [`authorization_servers[${i}]`, x] as const,
          ),
          "authorization_servers absent, or a non-empty array of https identifiers",
        );
      const batch = m.batch_credential_issuance;
      if (batch === undefined)
        c.skipOnly("VCI-META-BATCH-SIZE", "the issuer offers no batch issuance", "not-offered");
      else {
        const size = isObject(batch) ? batch.batch_size : undefined;
        c.check("VCI-META-BATCH-SIZE", Number.isInteger(size) && (size as number) >= 2, {
          expected: "batch_credential_issuance.batch_size an integer of at least 2",
          actual: quote(batch),
          kind: !isObject(batch)
            ? "malformed"
            : size === undefined
              ? "missing"
              : Number.isInteger(size)
                ? "wrong-value"
                : "malformed",
        });
      }
      const displays: [string, unknown, boolean][] = [["display", m.display, false]];
      if (isObject(confs))
        for (const [id, conf] of Object.entries(confs)) {
          const cm = isObject(conf) ? conf.credential_metadata : undefined;
          if (isObject(cm)) displays.push([`${id}.credential_metadata.display`, cm.display, true]);
        }
      const dup = displays.flatMap(([where, d]) => duplicateLocales(d).map((l) => `${where}: ${l}`));
      c.check("VCI-META-DISPLAY-LOCALE", dup.length === 0, {
        expected: "one display object per locale",
        actual: dup.length > 0 ? `locale used twice in ${dup.join("; ")}` : "locales unique",
      });
      const shape = displays.flatMap(([where, d, nameRequired]) => displayProblems(where, d, nameRequired));
      if (isObject(confs))
        for (const [id, conf] of Object.entries(confs)) {
          const cm = isObject(conf) ? conf.credential_metadata : undefined;
          if (isObject(cm)) shape.push(...claimsProblems(`${id}.credential_metadata.claims`, cm.claims));
        }
      noProblems(
        c,
        "VCI-META-DISPLAY-SHAPE",
        shape,
        "non-empty display arrays; names where required; language tags; color values; a URI in every logo and background_image; claims descriptions with a path",
      );
      const enc = encryptionProblems(m);
      noProblems(c, "VCI-META-ENCRYPTION-SHAPE", enc, "encryption objects with their REQUIRED members");
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.metadata.configurations",
    title:
      "every credential configuration has a format, binding methods and proof types together (or neither), valid binding methods and non-empty proof algorithms",
    requirements: [
      "VCI-META-CONFIG-FORMAT",
      "VCI-META-BINDING-PROOF",
      "VCI-META-BINDING-VALUES",
      "VCI-META-PROOF-TYPES",
    ],
    async run(c: Ctx) {
      const m = await new Vci(c).metadata();
      const confs = m.credential_configurations_supported;
      if (!isObject(confs))
        c.skip(
          "the metadata has no credential_configurations_supported: see VCI-META-REQUIRED",
          "dependency",
        );
      const format: Problem[] = [];
      const together: string[] = [];
      const binding: Problem[] = [];
      const proofTypes: Problem[] = [];
      for (const [id, conf] of Object.entries(confs)) {
        if (!isObject(conf)) {
          format.push(problem("malformed", `${id} is not an object`));
          continue;
        }
        // A format identifier and a scope value (RFC 6749 §3.3: 1*NQCHAR) are never empty.
        if (typeof conf.format !== "string" || conf.format === "")
          format.push(
            problem(
              conf.format === undefined ? "missing" : conf.format === "" ? "wrong-value" : "malformed",
              `${id}.format is ${quote(conf.format ?? null)}`,
            ),
          );
        if (conf.scope !== undefined && (typeof conf.scope !== "string" || conf.scope === ""))
          format.push(
            problem(conf.scope === "" ? "wrong-value" : "malformed", `${id}.scope is not a non-empty string`),
          );
        // Algorithm names (JWS) or numbers (COSE, for mso_mdoc): never an empty name.
        if (
          conf.credential_signing_alg_values_supported !== undefined &&
          !(
            Array.isArray(conf.credential_signing_alg_values_supported) &&
            conf.credential_signing_alg_values_supported.length > 0 &&
            conf.credential_signing_alg_values_supported.every(
              (a) => (typeof a === "string" && a !== "") || typeof a === "number",
            )
          )
        )
          format.push(
            problem(
              Array.isArray(conf.credential_signing_alg_values_supported) &&
                conf.credential_signing_alg_values_supported.length === 0
                ? "wrong-value"
                : "malformed",
              `${id}.credential_signing_alg_values_supported is not a non-empty array of algorithms`,
            ),
          );
        const hasBinding = conf.cryptographic_binding_methods_supported !== undefined;
        const hasProofs = conf.proof_types_supported !== undefined;
        if (hasBinding !== hasProofs)
          together.push(
            `${id} has ${hasBinding ? "cryptographic_binding_methods_supported without proof_types_supported" : "proof_types_supported without cryptographic_binding_methods_supported"}`,
          );
        if (hasBinding) {
          const b = conf.cryptographic_binding_methods_supported;
          if (!nonEmptyStrings(b) || !(b as string[]).every((x) => BINDING.test(x)))
            // Names that are no binding method are other values; anything but a list of names, another shape.
            binding.push(problem(nonEmptyStrings(b) ? "wrong-value" : notNames(b), `${id}: ${quote(b)}`));
        }
        if (hasProofs) {
          const pt = conf.proof_types_supported;
          if (!isObject(pt) || Object.keys(pt).length === 0)
            proofTypes.push(
              problem(
                isObject(pt) ? "wrong-value" : "malformed",
                `${id}.proof_types_supported is not a non-empty object`,
              ),
            );
          else
            for (const [type, spec] of Object.entries(pt)) {
              if (!isObject(spec) || !nonEmptyStrings(spec.proof_signing_alg_values_supported))
                proofTypes.push(
                  problem(
                    isObject(spec) ? notNames(spec.proof_signing_alg_values_supported) : "malformed",
                    `${id}.${type}.proof_signing_alg_values_supported is not a non-empty array`,
                  ),
                );
              const ka = isObject(spec) ? spec.key_attestations_required : undefined;
              if (ka !== undefined) {
                const ok =
                  isObject(ka) &&
                  ["key_storage", "user_authentication"].every(
                    (k) => ka[k] === undefined || nonEmptyStrings(ka[k]),
                  );
                // An empty list of values is another value; anything but lists of names, another shape.
                const kind =
                  isObject(ka) &&
                  ["key_storage", "user_authentication"].every(
                    (k) => ka[k] === undefined || nonEmptyStrings(ka[k]) || notNames(ka[k]) === "wrong-value",
                  )
                    ? "wrong-value"
                    : "malformed";
                if (!ok)
                  proofTypes.push(problem(kind, `${id}.${type}.key_attestations_required: ${quote(ka)}`));
              }
            }
        }
      }
      noProblems(
        c,
        "VCI-META-CONFIG-FORMAT",
        format,
        "a format string; scope and signing algorithms well formed",
      );
      noProblems(
        c,
        "VCI-META-BINDING-PROOF",
        together,
        "proof_types_supported exactly when cryptographic_binding_methods_supported",
      );
      noProblems(c, "VCI-META-BINDING-VALUES", binding, "binding methods jwk, cose_key or did:<method>");
      noProblems(
        c,
        "VCI-META-PROOF-TYPES",
        proofTypes,
        "each proof type with a non-empty proof_signing_alg_values_supported",
      );
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.metadata.signed",
    title:
      "signed metadata (Accept: application/jwt) is application/jwt with typ stdvci-issuer-metadata+jwt, an asymmetric alg, sub equal to the issuer, iat, and a signature by a trusted key",
    requirements: [
      "VCI-META-ACCEPT",
      "VCI-META-SIGNED-CONTENT-TYPE",
      "VCI-META-SIGNED-TYP",
      "VCI-META-SIGNED-ALG",
      "VCI-META-SIGNED-SUB",
      "VCI-META-SIGNED-SIGNATURE",
      "VCI-META-SIGNED-CLAIMS",
    ],
    async run(c: Ctx) {
      const v = new Vci(c);
      await v.metadata();
      const res = await c.http.get(v.metadataUrl(), {
        headers: { accept: "application/jwt" },
        label: "signed metadata",
      });
      const text = res.text.trim();
      const looksJwt = looksSigned(text);
      if (res.status !== 200 || (!looksJwt && (isJsonType(res) || isObject(res.json)))) {
        // A profile that trusts metadata signing keys declares that the issuer signs its metadata.
        if (c.profile.metadataKeys)
          c.require("VCI-META-ACCEPT", false, {
            expected: "signed metadata for Accept: application/jwt (the profile trusts metadataKeys for it)",
            actual: said(res),
          });
        c.skip(
          "the issuer answers Accept: application/jwt with plain JSON: it offers no signed metadata (a MAY)",
          "not-offered",
        );
      }
      const unsigned: string[] = [];
      for (const accept of PREFER_JWT) {
        const r = await c.http.get(v.metadataUrl(), {
          headers: { accept },
          label: "signed metadata, JWT preferred",
          discardBody: true,
        });
        if (r.status !== 200 || !startsSigned(r.text)) unsigned.push(`Accept ${accept}: ${said(r)}`);
      }
      const json = await c.http.get(v.metadataUrl(), {
        headers: { accept: "application/json" },
        label: "issuer metadata",
        discardBody: true,
      });
      const novary = [res, json]
        .filter((r) => !variesOnAccept(r.header("vary")))
        .map((r) => `${r === res ? "signed" : "JSON"} metadata with Vary ${quote(r.header("vary") ?? null)}`);
      c.check("VCI-META-ACCEPT", unsigned.length === 0 && novary.length === 0, {
        expected:
          "signed metadata for every Accept that prefers application/jwt, and Vary: Accept on both forms (RFC 9110 §12.5.5)",
        actual: [...unsigned, ...novary].join("; ") || "as expected",
      });
      c.check("VCI-META-SIGNED-CONTENT-TYPE", isJwtType(res), {
        expected: "Content-Type application/jwt",
        actual: res.header("content-type") ?? "(none)",
      });
      let header: Record<string, unknown>;
      let claims: Record<string, unknown>;
      try {
        header = decodeProtectedHeader(text) as Record<string, unknown>;
        claims = decodeJwt(text) as Record<string, unknown>;
      } catch (e) {
        c.require("VCI-META-SIGNED-TYP", false, {
          expected: "a compact JWS",
          actual: `not a JWT: ${(e as Error).message}`,
        });
        return;
      }
      c.check("VCI-META-SIGNED-TYP", header.typ === v.ids.metadataJwtTyp, {
        expected: `typ ${v.ids.metadataJwtTyp}`,
        actual: `typ ${quote(header.typ ?? null)}`,
      });
      const alg = typeof header.alg === "string" ? header.alg : "";
      c.check("VCI-META-SIGNED-ALG", alg !== "" && alg.toLowerCase() !== "none" && !MAC.test(alg), {
        expected: "an asymmetric signature algorithm",
        actual: `alg ${quote(header.alg ?? null)}`,
      });
      c.check("VCI-META-SIGNED-SUB", claims.sub === v.issuer && Number.isInteger(claims.iat), {
        expected: `sub ${v.issuer} and an integer iat`,
        actual: `sub ${quote(claims.sub ?? null)}, iat ${quote(claims.iat ?? null)}`,
      });
      const m = await v.metadata();
      const missing = Object.keys(m).filter((k) => claims[k] === undefined);
      const differ = ["credential_issuer", "credential_endpoint"].filter(
        (k) => m[k] !== undefined && claims[k] !== m[k],
      );
      c.check("VCI-META-SIGNED-CLAIMS", missing.length === 0 && differ.length === 0, {
        expected:
          "every parameter of the JSON metadata as a top-level claim, the same credential_issuer and credential_endpoint",
        actual:
          [
            missing.length > 0 ? `missing ${missing.join(", ")}` : "",
            ...differ.map((k) => `${k} ${quote(claims[k] ?? null)}, not ${quote(m[k])}`),
          ]
            .filter(Boolean)
            .join("; ") || "all there",
        kind: missing.length > 0 ? "missing" : "wrong-value",
      });
      if (!c.profile.metadataKeys) {
        c.skipOnly(
          "VCI-META-SIGNED-SIGNATURE",
          "the profile trusts no metadata signing key (metadataKeys)",
          "not-declared",
        );
        return;
      }
      const keys = ((JSON.parse(c.profile.metadataKeys) as { keys?: unknown[] }).keys ?? []).filter(
        (k): k is JWK => isObject(k),
      );
      let verified = false;
      for (const k of keys.filter(
        (k) => header.kid === undefined || k.kid === undefined || k.kid === header.kid,
      )) {
        if (MAC.test(alg) || alg.toLowerCase() === "none" || k.d !== undefined) continue;
        try {
          await jwtVerify(text, await importJWK(k, alg), { algorithms: [alg] });
          verified = true;
          break;
        } catch {
          // the next trusted key may be the one
        }
      }
      c.check("VCI-META-SIGNED-SIGNATURE", verified, {
        expected: `a signature by one of the ${keys.length} trusted key(s)${header.kid ? ` (kid ${quote(header.kid, 100)})` : ""}`,
        actual: verified ? "verified" : "no trusted key verifies it",
      });
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.authorization-server",
    title:
      "the Authorization Server metadata is at the RFC 8414 location of the issuer (or each authorization_servers entry) with a matching issuer and an https token_endpoint",
    requirements: ["VCI-AS-DISCOVERY", "VCI-AS-METADATA-LISTS"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const m = await v.metadata();
      // Entries that are not https identifiers are VCI-META-AUTH-SERVERS' business.
      const list = Array.isArray(m.authorization_servers)
        ? m.authorization_servers.filter((x): x is string => v.usable(x))
        : [c.profile.baseUrl];
      if (list.length === 0)
        c.skip("authorization_servers names no usable identifier: see VCI-META-AUTH-SERVERS", "dependency");
      // A plain http token_endpoint allowed by options.allowInsecureHttp leaves the requirement
      // not exercised, so a pass waits until every identifier is seen (a pass cannot be undone).
      const plain: string[] = [];
      let met = false;
      for (const id of list.slice(0, 5)) {
        const url = wellKnownUrl(id, AS_WELL_KNOWN);
        const res = await c.http.get(url, { label: "authorization server metadata" });
        const b = body(res);
        const found = res.status === 200 && b.issuer === id;
        const scheme = schemeOf(b.token_endpoint);
        if (found && scheme === "plain-http" && c.http.allowsPlainHttp)
          plain.push(`${id}: token_endpoint ${quote(b.token_endpoint)}`);
        else if (found && scheme === "https") met = true;
        else
          c.check("VCI-AS-DISCOVERY", false, {
            expected: `200 at ${url} with issuer ${id} and an https token_endpoint`,
            actual:
              res.status === 200
                ? `issuer ${quote(b.issuer ?? null)}, token_endpoint ${quote(b.token_endpoint ?? null)}`
                : said(res),
            kind:
              res.status !== 200
                ? "wrong-status"
                : !isObject(res.json)
                  ? "malformed"
                  : b.issuer === undefined || b.token_endpoint === undefined
                    ? "missing"
                    : "wrong-value",
          });
        // The test hook's offers always include a pre-authorized one (offers.trigger.kinds.preAuthorized).
        if (res.status === 200)
          noProblems(
            c,
            "VCI-AS-METADATA-LISTS",
            asListProblems(b, c.profile.offers.trigger !== undefined).map((p) => `${id}: ${p}`),
            "supported-value lists that name what the Authorization Server supports",
          );
      }
      if (plain.length > 0)
        c.skipOnly("VCI-AS-DISCOVERY", `${PLAIN_HTTP_ALLOWED} (${plain.join("; ")})`, "not-exercised");
      else if (met) c.check("VCI-AS-DISCOVERY", true);
    },
  }),
];
