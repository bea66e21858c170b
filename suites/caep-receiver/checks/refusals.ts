import { CompactSign, importJWK } from "jose";
import { defineCheck } from "../../../src/engine/check.js";
import { startJkuHost, tokenAttacks, type TokenAttackId } from "../../../src/engine/token-attacks.js";
import {
  CAEP_EVENT_NAMES,
  COMMON_CLAIMS,
  EVENT_CLAIMS,
  SET_REQUIRED_CLAIMS,
  SSF_VERIFICATION_EVENT,
  eventProblems,
  eventUri,
  subjectProblems,
  type CaepEventName,
  type ClaimRule,
} from "../../../src/protocols/caep.js";
import { exampleClaims } from "../../../mocks/transmitter/set.js";
import type { CaepReceiverProfile } from "../profile.js";
import { ReceiverClient } from "../receiver-client.js";
import { accepted, baseline, deliver } from "../delivery.js";
import type { SubId } from "../subjects.js";
import {
  errNotJudged,
  ERR_CODE,
  KEY_ERRS,
  refuseAll,
  shown,
  syntheticJti,
  type RefusalCase,
} from "./refuse.js";
import { transportChecks } from "./refusals-push.js";

/** The errs that fit an unsigned SET. */
const UNSIGNED_ERRS = [...KEY_ERRS, "invalid_request"];

/** The member a SET's crit lists and no specification defines (RFC 7515 §4.1.11). */
const UNKNOWN_CRIT = "urn:example:unknown";

/**
 * The signature family of the shared token attacks and what each decides: every forgery a
 * verifier might trust (a key the SET brings, algorithm confusion, none), not only a flipped byte.
 */
const FORGERIES: readonly [TokenAttackId, string, readonly string[]][] = [
  ["flipped-signature", "CAEPR-SIGNATURE", KEY_ERRS],
  ["stranger-key", "CAEPR-SIGNATURE", KEY_ERRS],
  ["embedded-jwk", "CAEPR-SIGNATURE", KEY_ERRS],
  ["embedded-x5c", "CAEPR-SIGNATURE", KEY_ERRS],
  ["jku", "CAEPR-SIGNATURE", KEY_ERRS],
  // An algorithm the Receiver does not allow reads as well as an unacceptable request.
  ["hs256-public-key", "CAEPR-ALG-CONFUSION", [...KEY_ERRS, "invalid_request"]],
  // An unsigned SET has no key to find fault with: invalid_request fits as well.
  ["alg-none", "CAEPR-ALG-NONE", UNSIGNED_ERRS],
  // No key of the Transmitter has this kid: the key is unacceptable, nothing else is wrong.
  ["unknown-kid", "CAEPR-KID-UNKNOWN", KEY_ERRS],
];

/** Claim and header variants of the family, and what each decides (SSF SET rules, public-spec-facts §4). */
const ENVELOPE: readonly [TokenAttackId, string, readonly string[]][] = [
  ["wrong-iss", "CAEPR-ISS", ["invalid_issuer"]],
  ["wrong-aud", "CAEPR-AUD", ["invalid_audience"]],
  ["typ-absent", "CAEPR-TYP", ["invalid_request"]],
  ["typ-JWT", "CAEPR-TYP", ["invalid_request"]],
  ["typ-logout+jwt", "CAEPR-TYP", ["invalid_request"]],
  // A SET without iss is not from the Transmitter's issuer.
  ["missing-iss", "CAEPR-ISS", ["invalid_issuer", "invalid_request"]],
  ["missing-iat", "CAEPR-REQUIRED-CLAIMS", ["invalid_request"]],
  ["missing-jti", "CAEPR-REQUIRED-CLAIMS", ["invalid_request"]],
  ["missing-events", "CAEPR-REQUIRED-CLAIMS", ["invalid_request"]],
  ["missing-sub_id", "CAEPR-REQUIRED-CLAIMS", ["invalid_request"]],
  ["iat-future", "CAEPR-IAT-FUTURE", ["invalid_request"]],
];

/** One forged variant of a fresh valid SET (each from its own SET, so no jti is shared). */
async function attack(
  k: ReceiverClient,
  subject: SubId,
  id: TokenAttackId,
  jku?: Awaited<ReturnType<typeof startJkuHost>>,
): Promise<{ token: string; title: string } | undefined> {
  const valid = await k.set("session-revoked", { subject });
  const [forged] = await tokenAttacks({
    token: valid.token,
    signingKey: k.signingKey,
    ...(jku ? { jku } : {}),
    requiredClaims: SET_REQUIRED_CLAIMS,
    typVariants: [undefined, "JWT", "logout+jwt"],
    only: [id],
  });
  if (forged !== undefined) k.hideSignature(forged.token);
  return forged;
}

/** A JSON value as one base64url segment. */
const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString("base64url");

/**
 * An unsigned variant of a fresh valid SET whose alg is a case variant of none: JWS algorithm
 * names are case-sensitive (RFC 7515 §4.1.1), so "None" is no algorithm, but a verifier that
 * refuses the exact string "none" and hands the rest to a library that folds case lets it in.
 */
async function unsignedAs(k: ReceiverClient, subject: SubId, alg: string): Promise<string> {
  const valid = await k.set("session-revoked", { subject });
  const [h = "", p = ""] = valid.token.split(".");
  const header = JSON.parse(Buffer.from(h, "base64url").toString("utf8")) as Record<string, unknown>;
  return `${b64({ ...header, alg })}.${p}.`;
}

/**
 * A fresh valid SET whose JWS header lists in crit an extension no one defines (and carries
 * it), signed with the Transmitter's real key: only the crit rule (RFC 7515 §4.1.11: such a
 * JWS is invalid) can refuse it. Signed here because the SET builder's signer, rightly,
 * refuses to produce a crit it does not understand.
 */
async function withUnknownCrit(k: ReceiverClient, subject: SubId): Promise<{ jti: string; token: string }> {
  const s = await k.set("session-revoked", { subject });
  const [h = ""] = s.token.split(".");
  const header = JSON.parse(Buffer.from(h, "base64url").toString("utf8")) as Record<string, unknown>;
  const jwk = k.signingKey;
  const alg = typeof header.alg === "string" ? header.alg : (jwk.alg ?? "ES256");
  const token = await new CompactSign(new TextEncoder().encode(JSON.stringify(s.payload)))
    .setProtectedHeader({ ...header, alg, crit: [UNKNOWN_CRIT], [UNKNOWN_CRIT]: true })
    .sign(await importJWK(jwk, alg), { crit: { [UNKNOWN_CRIT]: true } });
  k.hideSignature(token);
  return { jti: s.jti, token };
}

/**
 * Audiences that are not the Receiver's but that a careless comparison takes for it (RFC 7519
 * §4.1.3: the Receiver must identify itself with a value in aud; values compare as strings):
 * a prefix or suffix match, a string looked for in a string, an array read only when it is
 * non-empty or never read.
 */
function nearAudiences(aud: string): [string, unknown][] {
  const out: [string, unknown][] = [
    [`aud ${shown(`${aud}x`)} (the audience and one more character)`, `${aud}x`],
  ];
  if (aud.length > 1)
    out.push([`aud ${shown(aud.slice(0, -1))} (the audience without its last character)`, aud.slice(0, -1)]);
  out.push(['aud ["https://other.invalid/"] (an array naming another party)', ["https://other.invalid/"]]);
  out.push(["aud [] (an empty array)", []]);
  out.push([
    `aud [${shown(`${aud}x`)}] (an array whose entry is the audience and one more character)`,
    [`${aud}x`],
  ]);
  return out;
}

/**
 * Issuers that are not the Transmitter's but that a prefix or normalising comparison takes for
 * it. SSF: iss is identical to the Issuer the configuration came from; RFC 7519 §2 compares
 * StringOrURI values as case-sensitive strings with no transformation or canonicalization, so
 * a trailing slash and an upper-cased scheme or host name another issuer (whatever RFC 3986
 * says of the URL they locate).
 */
function nearIssuers(iss: string): [string, string][] {
  const out: [string, string][] = [
    [`iss ${shown(`${iss}/`)} (the issuer with a trailing slash)`, `${iss}/`],
    [
      `iss ${shown(`${iss.replace(/\/+$/, "")}/evil`)} (a path below the issuer)`,
      `${iss.replace(/\/+$/, "")}/evil`,
    ],
  ];
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(iss);
  if (m) {
    const upper = `${m[1]!.toUpperCase()}${m[2]!.toUpperCase()}${m[3]!}`;
    if (upper !== iss) out.push([`iss ${shown(upper)} (the scheme and host upper-cased)`, upper]);
  }
  return out;
}

/** A subject for the check's SETs: one the Receiver knows when the profile gives the hook. */
async function subjectOf(k: ReceiverClient): Promise<SubId> {
  return (await k.session("session hook (refusals)"))?.complex ?? k.subjects.fresh().complex;
}

/** Values of the wrong JSON type for a claim rule. */
function wrongTyped(rule: ClaimRule): unknown[] {
  switch (rule.type) {
    case "number":
      return ["1700000000"];
    case "object":
      return ["role=admin", ["role"]];
    case "string-array":
      return ["pwd", ["pwd", 42]];
    case "language-map":
      // A POSIX locale (en_US) is no BCP 47 language tag.
      return [
        "Policy violation",
        {},
        null,
        { en: "Policy violation", de: 42 },
        { en_US: "Policy violation" },
      ];
    case "string":
      return [42];
  }
}

/** An event claim object that breaks one rule of its type, with what it breaks. */
function brokenEvents(name: CaepEventName): [string, unknown][] {
  const base = exampleClaims(name, "required");
  const out: [string, unknown][] = [];
  for (const [claim, rule] of Object.entries(EVENT_CLAIMS[name])) {
    if (rule.required) {
      const { [claim]: _gone, ...rest } = base;
      out.push([`${name} without its required ${claim}`, rest]);
    }
    if (rule.values && !rule.open)
      out.push([`${name} with ${claim} "idc-not-a-value"`, { ...base, [claim]: "idc-not-a-value" }]);
    for (const v of wrongTyped(rule))
      out.push([`${name} with ${claim} ${shown(v)} (not of its type)`, { ...base, [claim]: v }]);
  }
  // The claims of every event, each broken once per type (under the type that has the fewest
  // claims of its own, so the breakage is the only thing to see).
  if (name === "session-revoked") {
    for (const [claim, rule] of Object.entries(COMMON_CLAIMS)) {
      if (rule.values && !rule.open)
        out.push([`${name} with ${claim} "idc-not-a-value"`, { ...base, [claim]: "idc-not-a-value" }]);
      for (const v of wrongTyped(rule))
        out.push([`${name} with ${claim} ${shown(v)} (not of its type)`, { ...base, [claim]: v }]);
    }
    out.push([`${name} whose event claims are a string, not an object`, "revoked"]);
  }
  // Only what the shared rules call a problem is sent: a variant they accept is no refusal probe.
  return out.filter(([, claims]) => eventProblems(eventUri(name), claims).length > 0);
}

/** sub_id values that are no valid subject identifier (RFC 9493; SSF complex). */
const BROKEN_SUBJECTS: readonly [string, unknown][] = [
  ["a sub_id that is a string", "user@example.com"],
  ["a sub_id without format", { email: "user@example.com" }],
  ["a sub_id of an unknown format", { format: "idc-no-such-format", id: "x" }],
  ["an email sub_id without email", { format: "email" }],
  ['an email sub_id whose email is ""', { format: "email", email: "" }],
  ["an iss_sub sub_id without sub", { format: "iss_sub", iss: "https://idp.example.com/" }],
  ["an opaque sub_id whose id is a number", { format: "opaque", id: 42 }],
  ["a complex sub_id naming no member", { format: "complex" }],
  ["a complex sub_id whose user is an email without email", { format: "complex", user: { format: "email" } }],
  ["an aliases sub_id with no identifiers", { format: "aliases", identifiers: [] }],
  [
    "an aliases sub_id nesting aliases",
    {
      format: "aliases",
      identifiers: [{ format: "aliases", identifiers: [{ format: "email", email: "user@example.com" }] }],
    },
  ],
  ["a jwt_id sub_id without jti", { format: "jwt_id", iss: "https://idp.example.com/" }],
  ["an account sub_id without uri", { format: "account" }],
  ["a phone_number sub_id without phone_number", { format: "phone_number" }],
  ["a did sub_id without url", { format: "did" }],
  ["a uri sub_id without uri", { format: "uri" }],
  [
    "a saml_assertion_id sub_id without assertion_id",
    { format: "saml_assertion_id", issuer: "https://idp.example.com/" },
  ],
  // A name every JavaScript object inherits: a format table read without an own-property test knows it.
  ["a sub_id of the format constructor", { format: "constructor", id: "x" }],
  ['a sub_id whose format is ["email"], not a string', { format: ["email"], email: "user@example.com" }],
  [
    "a complex sub_id whose user is complex",
    { format: "complex", user: { format: "complex", user: { format: "email", email: "user@example.com" } } },
  ],
  [
    "an aliases sub_id listing a complex subject",
    {
      format: "aliases",
      identifiers: [{ format: "complex", user: { format: "email", email: "user@example.com" } }],
    },
  ],
  ["an ip-addresses sub_id listing a number", { format: "ip-addresses", "ip-addresses": ["192.0.2.1", 42] }],
  // Each member of a complex subject (SSF 1.0 §3.2) invalid beside a valid one.
  ...["user", "device", "session", "application", "tenant", "org_unit", "group"].map(
    (m): [string, unknown] => [
      `a complex sub_id whose ${m} is an opaque without id`,
      {
        format: "complex",
        ...(m === "user"
          ? { session: { format: "opaque", id: "idc-session" } }
          : { user: { format: "email", email: "user@example.com" } }),
        [m]: { format: "opaque" },
      },
    ],
  ),
];

/**
 * specs/002 area B security event token envelope; SSF SET rules; RFC 8935 §2.3/§2.4 and RFC 8936
 * §2.2: SETs the Receiver must refuse, each refused (push 400, poll setErrs) with a fitting err.
 */
export const refusalChecks = [
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.refuse-signature",
    title:
      "SETs with a forged signature (flipped, a stranger key, a key the SET carries in jwk, x5c or jku), alg none (in any letter case), HS256 keyed with the public key, or an unknown kid are refused",
    requirements: ["CAEPR-SIGNATURE", "CAEPR-ALG-NONE", "CAEPR-ALG-CONFUSION", "CAEPR-KID-UNKNOWN", ERR_CODE],
    async run(c) {
      const k = new ReceiverClient(c);
      await baseline(c, k);
      const subject = await subjectOf(k);
      const jku = await startJkuHost();
      try {
        const cases: RefusalCase[] = [];
        for (const [id, requirement, fits] of FORGERIES) {
          const forged = await attack(k, subject, id, jku);
          // embedded-x5c has no certificate for an EdDSA key.
          if (forged === undefined) continue;
          cases.push({ id: requirement, label: forged.title, token: forged.token, fits });
        }
        for (const alg of ["None", "NONE"])
          cases.push({
            id: "CAEPR-ALG-NONE",
            label: `unsigned: header alg "${alg}" and an empty signature`,
            token: await unsignedAs(k, subject, alg),
            fits: UNSIGNED_ERRS,
          });
        errNotJudged(c, await refuseAll(c, k, cases));
        if (jku.fetched > 0)
          c.note(`the Receiver fetched the jku URL the forged SET named (${jku.fetched} time(s))`);
      } finally {
        await jku.close();
      }
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.refuse-envelope",
    title:
      "SETs from another or no iss (near misses included: a trailing slash, a path below it, upper case), for another aud (a prefix, a longer string, an array without it), with a wrong or missing typ, a crit extension no one defines, a JWT sub or exp claim (falsy values included), without iat, jti, events or sub_id (or with them mistyped), or issued far in the future are refused",
    requirements: [
      "CAEPR-ISS",
      "CAEPR-AUD",
      "CAEPR-TYP",
      "CAEPR-CRIT",
      "CAEPR-SUB-CLAIM",
      "CAEPR-EXP-CLAIM",
      "CAEPR-REQUIRED-CLAIMS",
      "CAEPR-IAT-FUTURE",
      ERR_CODE,
    ],
    async run(c) {
      const k = new ReceiverClient(c);
      await baseline(c, k);
      const subject = await subjectOf(k);
      const cases: RefusalCase[] = [];
      for (const [id, requirement, fits] of ENVELOPE) {
        const forged = await attack(k, subject, id);
        if (forged === undefined) continue;
        cases.push({
          id: requirement,
          label: forged.title,
          token: forged.token,
          fits,
          ...(id === "missing-jti" ? { jti: syntheticJti() } : {}),
        });
      }
      const now = Math.floor(Date.now() / 1000);
      const variant = async (
        id: string,
        label: string,
        payload: Record<string, unknown>,
        fits: readonly string[],
      ) => {
        const s = await k.set("session-revoked", { subject, payload });
        cases.push({
          id,
          label,
          token: s.token,
          fits,
          ...(typeof s.payload.jti === "string" && s.payload.jti !== "" ? {} : { jti: syntheticJti() }),
        });
      };
      await variant("CAEPR-SUB-CLAIM", "a JWT sub claim", { sub: "user-1234" }, ["invalid_request"]);
      await variant("CAEPR-EXP-CLAIM", "an exp claim (an hour ahead)", { exp: now + 3600 }, [
        "invalid_request",
      ]);
      // A required claim present but not of its type is no more there than a missing one.
      const mistyped: [string, Record<string, unknown>][] = [
        ["jti 42", { jti: 42 }],
        ['jti ""', { jti: "" }],
        ['iat "now" (a string)', { iat: String(now) }],
        ["events null", { events: null }],
        ['events "session-revoked" (a string)', { events: eventUri("session-revoked") }],
        ["events an array", { events: [{ [eventUri("session-revoked")]: {} }] }],
        ["sub_id null", { sub_id: null }],
      ];
      for (const [label, payload] of mistyped)
        await variant("CAEPR-REQUIRED-CLAIMS", label, payload, ["invalid_request"]);
      await variant("CAEPR-ISS", "iss 42", { iss: 42 }, ["invalid_issuer", "invalid_request"]);
      // Near misses, re-signed with the Transmitter's key so nothing else is wrong.
      for (const [label, aud] of nearAudiences(k.audience))
        await variant("CAEPR-AUD", label, { aud }, ["invalid_audience"]);
      for (const [label, iss] of nearIssuers(k.issuer))
        await variant("CAEPR-ISS", label, { iss }, ["invalid_issuer"]);
      // Present but falsy: a check written `if (payload.exp)` or `if (payload.sub)` lets these in.
      await variant("CAEPR-EXP-CLAIM", "exp 0", { exp: 0 }, ["invalid_request"]);
      await variant("CAEPR-SUB-CLAIM", 'a JWT sub claim ""', { sub: "" }, ["invalid_request"]);
      await variant("CAEPR-SUB-CLAIM", "a JWT sub claim null", { sub: null }, ["invalid_request"]);
      const crit = await withUnknownCrit(k, subject);
      cases.push({
        id: "CAEPR-CRIT",
        label: `crit [${shown(UNKNOWN_CRIT)}] (an extension no one defines)`,
        token: crit.token,
        jti: crit.jti,
        // The JWS is invalid as a whole: its key is not at fault, but a verifier that reports
        // every JWS failure as invalid_key is not wrong either.
        fits: ["invalid_request", "invalid_key"],
      });
      errNotJudged(c, await refuseAll(c, k, cases));
      // typ compares as a media type (RFC 7515 §4.1.9): these are secevent+jwt, and a Receiver
      // that refuses them takes the rule for a string comparison.
      for (const typ of ["application/secevent+jwt", "Secevent+JWT"]) {
        const s = await k.set("session-revoked", { subject, header: { typ } });
        const o = await deliver(k, s.token, { label: `typ "${typ}"`, jti: s.jti });
        accepted(c, "CAEPR-TYP", o, `typ "${typ}" (the same media type as secevent+jwt)`);
      }
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.refuse-event-claims",
    title:
      "SETs whose event lacks a REQUIRED claim of its type, has a value outside a closed value set, or a claim of the wrong type are refused",
    requirements: ["CAEPR-EVENT-CLAIMS", ERR_CODE],
    async run(c) {
      const k = new ReceiverClient(c);
      await baseline(c, k);
      const subject = await subjectOf(k);
      const cases: RefusalCase[] = [];
      for (const name of CAEP_EVENT_NAMES) {
        for (const [label, claims] of brokenEvents(name)) {
          const s = await k.set(name, {
            subject,
            edit: (p) => void (p.events = { [eventUri(name)]: claims }),
          });
          cases.push({ id: "CAEPR-EVENT-CLAIMS", label, token: s.token, fits: ["invalid_request"] });
        }
      }
      // The SSF verification event (SSF 1.0 §8.1.4): its claims an object, its state a string.
      const stream = await k.stream();
      for (const [label, claims] of [
        ["verification whose event claims are a string, not an object", "verify"],
        ["verification with state 42 (not a string)", { state: 42 }],
      ] as const) {
        if (eventProblems(SSF_VERIFICATION_EVENT, claims).length === 0) continue;
        const s = await k.set("verification", {
          subject: { format: "opaque", id: stream.streamId },
          edit: (p) => void (p.events = { [SSF_VERIFICATION_EVENT]: claims }),
        });
        cases.push({ id: "CAEPR-EVENT-CLAIMS", label, token: s.token, fits: ["invalid_request"] });
      }
      errNotJudged(c, await refuseAll(c, k, cases));
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.refuse-subject",
    title:
      "SETs whose sub_id is of no known format, lacks a member its format requires, or nests subjects wrongly are refused",
    requirements: ["CAEPR-SUBJECT-INVALID", ERR_CODE],
    async run(c) {
      const k = new ReceiverClient(c);
      await baseline(c, k);
      const cases: RefusalCase[] = [];
      for (const [label, subject] of BROKEN_SUBJECTS) {
        // Only what the shared rules call invalid is sent.
        if (subjectProblems(subject).length === 0) continue;
        const s = await k.set("session-revoked", { payload: { sub_id: subject } });
        cases.push({ id: "CAEPR-SUBJECT-INVALID", label, token: s.token, fits: ["invalid_request"] });
      }
      errNotJudged(c, await refuseAll(c, k, cases));
    },
  }),
  defineCheck<CaepReceiverProfile>({
    id: "caep-receiver.refuse-malformed",
    title: "a body that is no compact JWS, or whose header or payload is not a JSON object, is refused",
    requirements: ["CAEPR-MALFORMED", ERR_CODE],
    async run(c) {
      const k = new ReceiverClient(c);
      await baseline(c, k);
      const subject = await subjectOf(k);
      const valid = await k.set("session-revoked", { subject });
      const [h = "", p = "", sig = ""] = valid.token.split(".");
      const raw: [string, string][] = [
        ["a body that is not a JWS", "not-a-set"],
        ["two segments", `${h}.${p}`],
        ["four segments", `${h}.${p}.${sig}.${sig}`],
        ["a payload segment that is not base64url", `${h}.${p}*.${sig}`],
        ["a header that is a JSON array", `${b64([])}.${p}.${sig}`],
        ["a header that is not JSON", `${Buffer.from("{alg:").toString("base64url")}.${p}.${sig}`],
        ["a header that is JSON null", `${b64(null)}.${p}.${sig}`],
      ];
      const cases: RefusalCase[] = raw.map(([label, token]) => ({
        id: "CAEPR-MALFORMED",
        label,
        token,
        jti: syntheticJti(),
        fits: ["invalid_request"],
      }));
      // The real header without alg (RFC 7515 §4.1.1: alg is REQUIRED): no key can be chosen.
      const { alg: _alg, ...noAlg } = JSON.parse(Buffer.from(h, "base64url").toString()) as Record<
        string,
        unknown
      >;
      cases.push({
        id: "CAEPR-MALFORMED",
        label: "a JWS header without alg",
        token: `${b64(noAlg)}.${p}.${sig}`,
        jti: syntheticJti(),
        fits: ["invalid_request", "invalid_key"],
      });
      // Signed correctly, but the payload is no JSON object.
      for (const [label, payload] of [
        ["a signed payload that is not JSON", "session revoked"],
        ["a signed payload that is a JSON array", JSON.stringify([valid.payload])],
        ["a signed payload that is a JSON string", JSON.stringify("session revoked")],
      ] as const) {
        cases.push({
          id: "CAEPR-MALFORMED",
          label,
          token: await k.sign(payload),
          jti: syntheticJti(),
          fits: ["invalid_request"],
        });
      }
      errNotJudged(c, await refuseAll(c, k, cases));
    },
  }),
  ...transportChecks,
];
