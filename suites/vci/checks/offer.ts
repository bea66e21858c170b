import { defineCheck } from "../../../src/engine/check.js";
import type { FindingKind } from "../../../src/engine/finding-kind.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { parseJsonBounded } from "../../../src/http/json-bounds.js";
import { PRE_AUTHORIZED_GRANT } from "../../../src/protocols/vci.js";
import type { VciProfile } from "../profile.js";
import {
  isJsonType,
  isJwtType,
  isObject,
  judgeHttps,
  noStore,
  said,
  Vci,
  noProblems,
  problem,
  type Ctx,
  type Json,
  type OfferKind,
  type Problem,
} from "../client.js";

const PARAMS = ["credential_offer", "credential_offer_uri"];

/** The query parameters of an invocation URL (custom scheme or the wallet's https endpoint). */
function invocationParams(raw: string): URLSearchParams | undefined {
  const q = raw.indexOf("?");
  return q < 0 ? undefined : new URLSearchParams(raw.slice(q + 1));
}

/**
 * The credential_offer of an invocation as it stands in the query, undecoded: the first one
 * (a repeated parameter is VCI-OFFER-ONE-PARAM's finding).
 */
function rawOfferValue(raw: string): string | undefined {
  const q = raw.indexOf("?");
  if (q < 0) return undefined;
  const query = raw.slice(q + 1).split("#", 1)[0] ?? "";
  const pair = query.split("&").find((p) => p.startsWith("credential_offer="));
  return pair?.slice("credential_offer=".length);
}

/**
 * Judges that a credential_offer is URL-encoded (Endpoints: Wallet Credential Offer Endpoint:
 * "the offer object, URL-encoded JSON"): only the characters RFC 3986 §3.4 lets a query hold
 * as they are, every `%` starting an escape. JSON's braces and quotes never stand raw.
 */
function judgeEncoded(c: Ctx, raw: string, label = ""): void {
  const value = rawOfferValue(raw);
  if (value === undefined) return;
  const bad = /[^A-Za-z0-9\-._~!$'()*+,;=:@/?%]|%(?![0-9A-Fa-f]{2})/.exec(value);
  c.check("VCI-OFFER-MEMBERS", bad === null, {
    expected: "credential_offer: URL-encoded JSON of an object",
    actual: bad
      ? `${label}credential_offer has ${quote(bad[0])} unencoded at character ${bad.index}`
      : `${label}URL-encoded`,
    kind: "malformed",
  });
}

/** Problems of the offer's members (Resources: Credential Offer object; Grant parameters). */
function memberProblems(offer: Json, issuer: string): Problem[] {
  const out: Problem[] = [];
  if (offer.credential_issuer !== issuer)
    out.push(
      problem(
        offer.credential_issuer === undefined ? "missing" : "wrong-value",
        `credential_issuer ${quote(offer.credential_issuer ?? null)} is not ${issuer}`,
      ),
    );
  const ids = offer.credential_configuration_ids;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((x) => typeof x === "string"))
    out.push(
      problem(
        ids === undefined ? "missing" : Array.isArray(ids) && ids.length === 0 ? "wrong-value" : "malformed",
        "credential_configuration_ids is not a non-empty array of strings",
      ),
    );
  else if (new Set(ids).size !== ids.length)
    out.push(problem("wrong-value", "credential_configuration_ids has duplicates"));
  if (offer.grants !== undefined && !isObject(offer.grants))
    out.push(problem("malformed", "grants is not an object"));
  else if (isObject(offer.grants))
    for (const [g, p] of Object.entries(offer.grants))
      if (!isObject(p)) out.push(problem("malformed", `grants.${g} is not an object`));
  return out;
}

/** Judges an offer's members and that every configuration id it names is in the metadata. */
function judgeMembers(
  c: Ctx,
  offer: Json,
  issuer: string,
  meta: Json,
  res: HttpResponse | undefined,
  label = "",
): void {
  noProblems(
    c,
    "VCI-OFFER-MEMBERS",
    memberProblems(offer, issuer).map((p) => problem(p.kind, `${label}${p.text}`)),
    "credential_issuer equal to the profile's issuer, unique configuration ids, grants an object",
    res,
  );
  const confs = meta.credential_configurations_supported;
  const ids: unknown[] = Array.isArray(offer.credential_configuration_ids)
    ? offer.credential_configuration_ids
    : [];
  const unknown = ids.filter((id) => typeof id !== "string" || !isObject(confs) || !isObject(confs[id]));
  c.check("VCI-OFFER-CONFIG-KNOWN", unknown.length === 0, {
    expected: "every credential_configuration_id a key of credential_configurations_supported",
    actual:
      unknown.length > 0
        ? `${label}not in the metadata: ${unknown
            .slice(0, 10)
            .map((x) => quote(x, 80))
            .join(", ")}${unknown.length > 10 ? ` and ${unknown.length - 10} more` : ""}`
        : "all known",
    ...(res ? { res } : {}),
  });
}

/**
 * The kind of a violated "200 application/json with the offer object": another status, no or
 * another Content-Type, or a JSON answer that is no offer object.
 */
function offerAnswerKind(res: HttpResponse): FindingKind {
  if (res.status !== 200) return "wrong-status";
  if (!isJsonType(res)) return res.header("content-type") === undefined ? "missing" : "wrong-value";
  return "malformed";
}

interface Fetched {
  readonly raw: string | undefined;
  readonly offer: Json | undefined;
  readonly res: HttpResponse | undefined;
  readonly uri: string | undefined;
}

/** An offer of `kind` read for judging: the invocation, and the GET of its URI when by reference. */
async function fetchOffer(c: Ctx, v: Vci, kind: OfferKind, lenient = false): Promise<Fetched> {
  const { raw } = await v.rawOffer(kind);
  if (isObject(raw)) {
    v.protect(raw);
    return { raw: undefined, offer: raw, res: undefined, uri: undefined };
  }
  if (typeof raw !== "string")
    c.skip(`the offer source gave ${quote(raw)}, neither an invocation nor an offer`, "dependency");
  const params = invocationParams(raw);
  // An offer meant by value is read by value, even when the invocation also names a URI.
  const byValue = kind === "byValue" && params?.has("credential_offer") === true;
  const uri = byValue ? undefined : (params?.get("credential_offer_uri") ?? undefined);
  if (uri !== undefined) {
    judgeHttps(
      c,
      "VCI-OFFER-URI-HTTPS",
      [["credential_offer_uri", uri]],
      "credential_offer_uri an https URL",
      lenient ? `${kind} offer: ` : "",
    );
    // TLS is mandatory (Authentication 5): the Wallet does not fetch an offer over anything else
    // (plain http only in a run with options.allowInsecureHttp).
    if (!v.usable(uri) && lenient) return { raw, offer: undefined, res: undefined, uri };
    if (!v.usable(uri))
      c.skip(
        "credential_offer_uri is not an https URL, so the Wallet does not fetch it: see VCI-OFFER-URI-HTTPS",
        "dependency",
      );
    const res = await c.http.get(uri, { label: "offer by reference" });
    if (isObject(res.json)) v.protect(res.json);
    // A signed offer (which the document forbids) still carries a live code: keep it out of outputs.
    else if (/^[\w-]+\.[\w-]+\.[\w-]*$/.test(res.text.trim())) c.secret(res.text.trim(), "SIGNED_OFFER");
    return { raw, offer: isObject(res.json) ? res.json : undefined, res, uri };
  }
  const value = params?.get("credential_offer");
  if (value === undefined || value === null) return { raw, offer: undefined, res: undefined, uri: undefined };
  const parsed = parseJsonBounded(value);
  const offer = parsed.ok ? parsed.value : undefined;
  if (isObject(offer)) v.protect(offer);
  return { raw, offer: isObject(offer) ? offer : undefined, res: undefined, uri: undefined };
}

/** Judges an invocation's query: exactly one of credential_offer and credential_offer_uri, once. */
function judgeOneParam(c: Ctx, raw: string, label = ""): void {
  const params = invocationParams(raw);
  const present = PARAMS.filter((p) => params?.has(p));
  const extra = params ? [...params.keys()].filter((k) => !PARAMS.includes(k)) : [];
  c.check(
    "VCI-OFFER-ONE-PARAM",
    present.length === 1 && params?.getAll(present[0]!).length === 1 && extra.length === 0,
    {
      expected: "exactly one query parameter: credential_offer or credential_offer_uri",
      actual: `${label}${params ? `parameters ${[...params.keys()].join(", ") || "(none)"}` : "no query"}`,
      // Neither parameter; else both, one twice, or others beside it.
      kind: present.length === 0 ? "missing" : "wrong-value",
    },
  );
}

/**
 * Judges an offer's grants (Grant parameters): a pre-authorized grant carries its code, and an
 * authorization_server appears only when the metadata lists several and names one of them.
 * `first` skips VCI-OFFER-PRE-AUTH-CODE when the offer has no pre-authorized grant.
 */
function judgeGrants(
  c: Ctx,
  offer: Json,
  meta: Json,
  res: HttpResponse | undefined,
  first: boolean,
  label = "",
): void {
  const grants = isObject(offer.grants) ? offer.grants : {};
  const pre = grants[PRE_AUTHORIZED_GRANT];
  if (pre === undefined) {
    if (first) c.skipOnly("VCI-OFFER-PRE-AUTH-CODE", "the offer has no pre-authorized grant", "not-offered");
  } else
    c.check("VCI-OFFER-PRE-AUTH-CODE", isObject(pre) && typeof pre["pre-authorized_code"] === "string", {
      expected: "pre-authorized_code, a string",
      actual: `${label}${
        isObject(pre)
          ? `pre-authorized_code of type ${typeof pre["pre-authorized_code"]}`
          : "the grant is not an object"
      }`,
      ...(res ? { res } : {}),
      kind: isObject(pre) && pre["pre-authorized_code"] === undefined ? "missing" : "malformed",
    });
  const servers = Array.isArray(meta.authorization_servers) ? meta.authorization_servers : [];
  const named = Object.entries(grants)
    .filter(([, p]) => isObject(p) && p.authorization_server !== undefined)
    .map(([g, p]) => [g, (p as Json).authorization_server] as const);
  const wrong = named.filter(([, as]) => servers.length < 2 || !servers.includes(as));
  c.check("VCI-OFFER-AUTH-SERVER", wrong.length === 0, {
    expected:
      servers.length < 2
        ? "no authorization_server in grants (the metadata lists fewer than two authorization_servers)"
        : `authorization_server one of ${servers.join(", ")}`,
    actual:
      wrong.map(([g, as]) => `${label}${g.slice(0, 80)}.authorization_server ${quote(as)}`).join("; ") ||
      "none named",
    ...(res ? { res } : {}),
  });
}

/** The preAuthorized offer by reference: its response, a second offer for caching, its members and grants. */
async function judgeFirstByReference(
  c: Ctx,
  v: Vci,
  meta: Json,
  first: Fetched,
  res: HttpResponse,
): Promise<void> {
  c.check("VCI-OFFER-UNSIGNED", !isJwtType(res), {
    expected: "not application/jwt",
    actual: res.header("content-type") ?? "(no Content-Type)",
    res,
  });
  c.require("VCI-OFFER-URI-JSON", res.status === 200 && isJsonType(res) && first.offer !== undefined, {
    expected: "200 application/json with the offer object",
    actual: `${said(res)} (${res.header("content-type") ?? "no Content-Type"})`,
    res,
    kind: offerAnswerKind(res),
  });
  const second = await fetchOffer(c, v, "preAuthorized");
  if (second.uri === undefined || second.res === undefined)
    c.skipOnly("VCI-OFFER-NOT-CACHEABLE", "the second offer did not come by reference", "not-offered");
  else {
    const unique = second.uri !== first.uri;
    c.check("VCI-OFFER-NOT-CACHEABLE", unique || (noStore(res) && noStore(second.res)), {
      expected: "a unique credential_offer_uri per offer, or Cache-Control: no-store",
      actual: `${unique ? "distinct URIs" : "the same URI for two offers"}; Cache-Control ${second.res.header("cache-control") ?? "(none)"}`,
      res: second.res,
    });
  }
  const offer = first.offer!;
  judgeMembers(c, offer, v.issuer, meta, res);
  judgeGrants(c, offer, meta, res, true);
}

/** The offer kinds vci.offer.reference judges besides preAuthorized (byValue has its own check). */
const OTHER_KINDS = ["txCode", "deferred", "authorizationCode"] as const;

/**
 * Judges one more offer, of `kind`, by every rule of an offer (invocation, by-reference
 * response, members, grants), without stopping the check when it cannot be read.
 */
async function judgeOtherOffer(c: Ctx, v: Vci, meta: Json, kind: OfferKind): Promise<void> {
  judgeFetched(c, v, meta, await fetchOffer(c, v, kind, true), `${kind} offer: `);
}

/** Judges an offer read by `fetchOffer`: its invocation, its by-reference response if any, its members and grants. */
function judgeFetched(c: Ctx, v: Vci, meta: Json, got: Fetched, label: string, first = false): void {
  if (got.raw !== undefined) judgeOneParam(c, got.raw, label);
  if (got.raw !== undefined && got.uri === undefined) judgeEncoded(c, got.raw, label);
  const res = got.res;
  if (res !== undefined) {
    c.check("VCI-OFFER-UNSIGNED", !isJwtType(res), {
      expected: "not application/jwt",
      actual: `${label}${res.header("content-type") ?? "(no Content-Type)"}`,
      res,
    });
    c.check("VCI-OFFER-URI-JSON", res.status === 200 && isJsonType(res) && got.offer !== undefined, {
      expected: "200 application/json with the offer object",
      actual: `${label}${said(res)} (${res.header("content-type") ?? "no Content-Type"})`,
      res,
      kind: offerAnswerKind(res),
    });
  }
  if (got.offer === undefined) {
    // By value, a credential_offer that is no JSON object breaks the offer's form (an
    // invocation without the parameter is VCI-OFFER-ONE-PARAM's finding).
    if (got.uri === undefined && got.raw !== undefined && invocationParams(got.raw)?.has("credential_offer"))
      c.check("VCI-OFFER-MEMBERS", false, {
        expected: "credential_offer: URL-encoded JSON of an object",
        actual: `${label}not a JSON object`,
      });
    return;
  }
  judgeMembers(c, got.offer, v.issuer, meta, res, label);
  judgeGrants(c, got.offer, meta, res, first, label);
}

/** The rules only an offer by reference shows. */
const BY_REFERENCE = [
  "VCI-OFFER-URI-HTTPS",
  "VCI-OFFER-URI-JSON",
  "VCI-OFFER-UNSIGNED",
  "VCI-OFFER-NOT-CACHEABLE",
] as const;

/**
 * The preAuthorized offer came by value (or as the offer object itself): the by-reference rules
 * wait for an offer by reference among the other kinds, and the offer's members and grants are
 * judged as they came, since those rules hold for every offer whatever its delivery.
 */
function judgeFirstByValue(c: Ctx, v: Vci, meta: Json, first: Fetched): void {
  for (const id of BY_REFERENCE)
    c.skipOnly(
      id,
      "the offers came by value; the by-reference rules need an offer by reference",
      "not-offered",
    );
  if (first.raw === undefined)
    c.skipOnly(
      "VCI-OFFER-ONE-PARAM",
      "the offer source gave the offer object itself, not an invocation",
      "not-exercised",
    );
  if (
    first.offer === undefined &&
    first.raw !== undefined &&
    !invocationParams(first.raw)?.has("credential_offer")
  ) {
    // No offer to judge: VCI-OFFER-ONE-PARAM has the invocation's finding.
    for (const id of [
      "VCI-OFFER-MEMBERS",
      "VCI-OFFER-CONFIG-KNOWN",
      "VCI-OFFER-PRE-AUTH-CODE",
      "VCI-OFFER-AUTH-SERVER",
    ])
      c.skipOnly(id, "the invocation carries no offer: see VCI-OFFER-ONE-PARAM", "dependency");
    return;
  }
  if (first.offer === undefined)
    for (const id of ["VCI-OFFER-CONFIG-KNOWN", "VCI-OFFER-PRE-AUTH-CODE", "VCI-OFFER-AUTH-SERVER"])
      c.skipOnly(id, "the offer could not be read: see VCI-OFFER-MEMBERS", "dependency");
  judgeFetched(c, v, meta, first, "", true);
}

/** specs/000 Resources: Credential Offer object; Endpoints: Wallet Credential Offer Endpoint. */
export const offerChecks = [
  defineCheck<VciProfile>({
    id: "vci.offer.reference",
    title:
      "every offer carries one parameter and valid members and grants naming configurations of the metadata; one by reference has an https URI answering application/json (never signed) that is unique per offer or not cacheable",
    requirements: [
      "VCI-OFFER-ONE-PARAM",
      "VCI-OFFER-URI-HTTPS",
      "VCI-OFFER-URI-JSON",
      "VCI-OFFER-UNSIGNED",
      "VCI-OFFER-NOT-CACHEABLE",
      "VCI-OFFER-MEMBERS",
      "VCI-OFFER-CONFIG-KNOWN",
      "VCI-OFFER-PRE-AUTH-CODE",
      "VCI-OFFER-AUTH-SERVER",
    ],
    async run(c: Ctx) {
      const v = new Vci(c);
      const meta = await v.metadata();
      const first = await fetchOffer(c, v, "preAuthorized");
      if (first.res === undefined) judgeFirstByValue(c, v, meta, first);
      else await judgeFirstByReference(c, v, meta, first, first.res);
      // The rules hold for every offer the issuer makes: each other kind the profile declares
      // (byValue has its own check) is judged the same way.
      for (const kind of OTHER_KINDS)
        if (c.profile.offers.trigger?.kinds[kind] !== undefined) await judgeOtherOffer(c, v, meta, kind);
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.offer.value",
    title:
      "an offer by value carries one parameter and valid members and grants naming configurations of the metadata",
    requirements: [
      "VCI-OFFER-ONE-PARAM",
      "VCI-OFFER-MEMBERS",
      "VCI-OFFER-CONFIG-KNOWN",
      "VCI-OFFER-PRE-AUTH-CODE",
      "VCI-OFFER-AUTH-SERVER",
    ],
    async run(c: Ctx) {
      const v = new Vci(c);
      const meta = await v.metadata();
      const got = await fetchOffer(c, v, "byValue");
      if (got.uri !== undefined) c.skip("the byValue offer came by reference", "needs-hook");
      if (got.raw === undefined)
        c.skipOnly(
          "VCI-OFFER-ONE-PARAM",
          "the offer source gave the offer object itself, not an invocation",
          "not-exercised",
        );
      else {
        const params = invocationParams(got.raw);
        const present = PARAMS.filter((p) => params?.has(p));
        c.check("VCI-OFFER-ONE-PARAM", present.length === 1 && [...(params?.keys() ?? [])].length === 1, {
          expected: "exactly one query parameter: credential_offer",
          actual: params ? `parameters ${[...params.keys()].join(", ") || "(none)"}` : "no query",
          kind: present.length === 0 ? "missing" : "wrong-value",
        });
        judgeEncoded(c, got.raw);
      }
      if (got.offer === undefined) {
        c.check("VCI-OFFER-MEMBERS", false, {
          expected: "credential_offer: URL-encoded JSON of an object",
          actual: "not a JSON object",
        });
        for (const id of ["VCI-OFFER-CONFIG-KNOWN", "VCI-OFFER-PRE-AUTH-CODE", "VCI-OFFER-AUTH-SERVER"])
          c.skipOnly(id, "the offer could not be read: see VCI-OFFER-MEMBERS", "dependency");
        return;
      }
      judgeMembers(c, got.offer, v.issuer, meta, undefined);
      // The grant rules hold for an offer whatever its delivery (Grant parameters).
      judgeGrants(c, got.offer, meta, undefined, true, "byValue offer: ");
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.offer.tx-code",
    title:
      "a tx_code object has input_mode numeric or text, an integer length and a description of at most 300 characters",
    requirements: ["VCI-OFFER-TX-CODE"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const o = await v.offer("txCode");
      const grants = isObject((o.offer as Json).grants) ? ((o.offer as Json).grants as Json) : {};
      const pre = grants[PRE_AUTHORIZED_GRANT];
      const tx = isObject(pre) ? pre.tx_code : undefined;
      if (tx === undefined) c.skip("the txCode offer carries no tx_code object", "needs-hook");
      const problems: string[] = [];
      if (!isObject(tx)) problems.push("tx_code is not an object");
      else {
        if (tx.input_mode !== undefined && tx.input_mode !== "numeric" && tx.input_mode !== "text")
          problems.push(`input_mode ${quote(tx.input_mode)}`);
        if (tx.length !== undefined && !(Number.isInteger(tx.length) && (tx.length as number) > 0))
          problems.push(`length ${quote(tx.length)}`);
        if (
          tx.description !== undefined &&
          (typeof tx.description !== "string" || [...tx.description].length > 300)
        )
          problems.push(
            typeof tx.description === "string"
              ? `description of ${[...tx.description].length} characters`
              : "description is not a string",
          );
      }
      noProblems(
        c,
        "VCI-OFFER-TX-CODE",
        problems,
        "input_mode numeric|text, integer length, description of at most 300 characters",
        o.fetched,
      );
    },
  }),
];
