import { defineCheck, type Details } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import { startJkuHost, tokenAttacks, type TokenAttackId } from "../../../src/engine/token-attacks.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { FederationProfile } from "../profile.js";
import { AUTH_PROBE, Fed, type Ctx } from "../client.js";
import {
  ASSERTION_TYPE,
  clientOf,
  formWith,
  METADATA_OF,
  NO_CLIENT_AUTH,
  signClientAssertion,
  type ClientIdentity,
} from "../client-auth.js";
import { TAG } from "../observers.js";
import { decodeStatement, isObject } from "../statements.js";
import { readCollPage } from "./collection.js";
import { baseList, withQuery } from "./fetch-list.js";

export const NOT_DECLARED = "the profile names no endpoint requiring client authentication";

type Endpoint = keyof typeof METADATA_OF;

const NAMES: Record<Endpoint, string> = {
  extendedList: "extended list",
  collection: "collection",
  events: "events endpoint",
};
const TAGS: Record<Endpoint, string> = {
  extendedList: TAG.extendedList,
  collection: TAG.collection,
  events: TAG.events,
};

/**
 * The forgeries and near-misses of the shared token attack family a private_key_jwt verifier
 * must refuse (public-spec-facts §2 Endpoints: aud the responder; RFC 7523 §3: iss, sub, aud,
 * exp, nbf and a signature by the client's key; OpenID Connect Core §9 private_key_jwt: iss,
 * sub, aud, jti and exp REQUIRED, jti against replay). `typ` is not constrained for client
 * assertions, and an iat in the future is no rule of either: neither is probed.
 */
const FORGED: readonly TokenAttackId[] = [
  "alg-none",
  "flipped-signature",
  "stranger-key",
  "unknown-kid",
  "embedded-jwk",
  "embedded-x5c",
  "jku",
  "hs256-public-key",
  "wrong-aud",
  "missing-aud",
  "wrong-iss",
  "missing-iss",
  "missing-sub",
  "expired",
  "nbf-future",
  "missing-exp",
  "missing-jti",
];

/** One endpoint the profile says requires client authentication, as the target publishes it. */
interface Protected {
  readonly name: Endpoint;
  readonly url: string;
  /** Parameters of an ordinary request to it. */
  readonly params: readonly (readonly [string, string])[];
}

interface Setup {
  readonly f: Fed;
  readonly client: ClientIdentity;
  readonly aud: string;
  readonly endpoints: readonly Protected[];
}

/**
 * The profile's client, the target's Entity Identifier and the endpoints to probe; skips when the
 * profile names none, and says "partly" for a named endpoint that cannot be probed.
 */
async function setup(c: Ctx, requirements: readonly string[]): Promise<Setup> {
  if (!c.profile.clientAuth) c.skip(NOT_DECLARED, "not-declared");
  const client = clientOf(c.profile, c.provided);
  if (!client) c.skip("clientAuth gives no clientId and no mock leaf runs to authenticate as", "dependency");
  const f = new Fed(c);
  const ec = await f.trusted();
  const fe = await f.federationEntity();
  const iss = ec.payload.iss;
  const aud = typeof iss === "string" ? iss : c.profile.baseUrl;
  const endpoints: Protected[] = [];
  let subs: string[] | undefined;
  for (const name of c.profile.clientAuth?.endpoints ?? []) {
    const url = fe[METADATA_OF[name]];
    const cannot = (why: string): void => {
      for (const r of requirements) c.partly(r, `the ${NAMES[name]} is not probed: ${why}`, "dependency");
    };
    if (typeof url !== "string" || !/^https?:\/\//.test(url)) {
      cannot(`the Entity Configuration publishes no URL as ${METADATA_OF[name]}`);
      continue;
    }
    if (name === "events") {
      subs ??= (await baseList(c, f)) ?? [];
      const sub = subs[0];
      if (sub === undefined) {
        cannot("the base list names no Immediate Subordinate to ask the events of");
        continue;
      }
      endpoints.push({ name, url, params: [["sub", sub]] });
    } else endpoints.push({ name, url, params: [["limit", "1"]] });
  }
  return { f, client, aud, endpoints };
}

/** Why `res` is not a refusal with invalid_client and none of the data, or undefined. */
function notRefused(res: HttpResponse, statusToo = true): string | undefined {
  const data =
    res.status >= 200 && res.status < 300
      ? `answered ${res.status}`
      : /^[\w-]+\.[\w-]+\.[\w-]*$/.test(res.text.trim())
        ? "the body is a JWT"
        : Array.isArray(res.json) ||
            (isObject(res.json) &&
              ["entities", "immediate_subordinate_entities", "next"].some((k) => k in (res.json as object)))
          ? "the body holds the endpoint's data"
          : undefined;
  if (data !== undefined) return data;
  if (!statusToo) return undefined;
  const error = isObject(res.json) ? res.json.error : undefined;
  if (res.status !== 401 || error !== "invalid_client")
    return `${res.status} with error ${quote(error ?? res.text.slice(0, 80), 80)}`;
  return undefined;
}

const refusal = (res: HttpResponse, probe: string, statusToo = true): Details | undefined => {
  const why = notRefused(res, statusToo);
  return why === undefined
    ? undefined
    : {
        expected: statusToo
          ? "401 with error invalid_client (public-spec-facts §2 Errors) and none of the endpoint's data"
          : "a refusal (not 2xx) with none of the endpoint's data",
        actual: `${probe}: ${why}`,
        res,
        kind:
          res.status >= 200 && res.status < 300
            ? "accepted"
            : res.status === 401
              ? "wrong-code"
              : "wrong-status",
      };
};

/** A form POST to `e` with `assertion` (or none), sent as built: the Fed adds nothing. */
function post(c: Ctx, e: Protected, assertion: string | undefined, label: string, type = ASSERTION_TYPE) {
  const body = new URLSearchParams(
    formWith(new URLSearchParams(e.params.map(([k, v]) => [k, v])), assertion),
  );
  if (assertion !== undefined) body.set("client_assertion_type", type);
  return c.http.post(e.url, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: body.toString(),
    label: `${NAMES[e.name]}: ${label}`,
    tags: [TAGS[e.name], NO_CLIENT_AUTH, "attack"],
  });
}

/** specs/001 Authentication 1; public-spec-facts §2 Endpoints (private_key_jwt) and Errors. */
export const clientAuthChecks = [
  defineCheck<FederationProfile>({
    id: "federation.client-auth",
    title:
      "each endpoint that requires client authentication serves a form POST with a valid private_key_jwt assertion of the profile's client, and refuses with 401 invalid_client and none of its data a request without one, a replayed one, or one of the token attack family (alg none, a bad or stranger signature, a key it carries, another aud or iss, expired, no jti)",
    requirements: ["FED-AUTH-PRIVATE-KEY-JWT", "FED-AUTH-ASSERTION-CHECKED"],
    timeoutMs: 120_000,
    async run(c) {
      const { client, aud, endpoints } = await setup(c, [
        "FED-AUTH-PRIVATE-KEY-JWT",
        "FED-AUTH-ASSERTION-CHECKED",
      ]);
      const fresh = async (claims = {}): Promise<string> => {
        const t = await signClientAssertion(client, aud, claims);
        c.secret(t, "CLIENT_ASSERTION");
        return t;
      };
      const jku = await startJkuHost();
      try {
        for (const e of endpoints) {
          // The ordinary request, authenticated the way every check's is (the Fed adds it).
          const ok = await c.http.get(withQuery(e.url, e.params), {
            label: `${NAMES[e.name]}, authenticated`,
            tags: [TAGS[e.name], AUTH_PROBE],
          });
          c.check("FED-AUTH-PRIVATE-KEY-JWT", ok.status === 200, {
            expected: `200 to a form POST with a private_key_jwt assertion of ${quote(client.clientId)}`,
            actual: `${ok.status} ${ok.text.slice(0, 160)}`,
            res: ok,
          });
          if (ok.status !== 200) {
            c.partly(
              "FED-AUTH-ASSERTION-CHECKED",
              `the ${NAMES[e.name]} refused a valid assertion (${ok.status}): its refusals say nothing`,
              "dependency",
            );
            continue;
          }
          const judge = (res: HttpResponse, probe: string, statusToo = true): void => {
            const d = refusal(res, probe, statusToo);
            c.check("FED-AUTH-ASSERTION-CHECKED", d === undefined, d ?? {});
          };
          const get = await c.http.get(withQuery(e.url, e.params), {
            label: `${NAMES[e.name]}: GET without client authentication`,
            tags: [TAGS[e.name], NO_CLIENT_AUTH, "attack"],
          });
          judge(get, "a GET without client authentication", false);
          judge(await post(c, e, undefined, "form POST without a client assertion"), "no client assertion");
          judge(
            await post(
              c,
              e,
              await fresh(),
              "valid assertion under another client_assertion_type",
              "urn:ietf:params:oauth:client-assertion-type:saml2-bearer",
            ),
            "a valid assertion under another client_assertion_type",
          );
          judge(
            await post(
              c,
              e,
              await fresh({ sub: `${client.clientId}/other` }),
              "assertion whose sub is not its iss",
            ),
            "an assertion whose sub is not its iss",
          );
          // Each forgery from a fresh assertion (its own jti): a refusal is never a replay's.
          for (const attack of FORGED) {
            const [forged] = await tokenAttacks({
              token: await fresh(),
              signingKey: client.jwk,
              jku,
              requiredClaims: ["iss", "sub", "aud", "exp", "jti"],
              typVariants: [],
              only: [attack],
            });
            if (forged === undefined) continue; // no x5c for an EdDSA key
            c.secret(forged.token, "CLIENT_ASSERTION");
            judge(
              await post(c, e, forged.token, `assertion ${forged.title}`),
              `an assertion ${forged.title}`,
            );
          }
          const once = await fresh();
          const first = await post(c, e, once, "assertion, first use");
          if (first.status !== 200) {
            c.partly(
              "FED-AUTH-ASSERTION-CHECKED",
              `the ${NAMES[e.name]} refused a fresh assertion (${first.status}): replay not probed there`,
              "dependency",
            );
            continue;
          }
          judge(
            await post(c, e, once, "the same assertion again (replay)"),
            "the same assertion (same jti) a second time",
          );
        }
      } finally {
        await jku.close();
      }
    },
  }),
  defineCheck<FederationProfile>({
    id: "federation.client-auth-post",
    title:
      "an endpoint that requires client authentication reads its parameters from the authenticated form POST body: with other values in the query string, the extended list pages by the body's limit and from, the collection filters and pages by the body, and the events endpoint answers about the body's sub",
    requirements: ["FED-AUTH-XL-POST", "FED-AUTH-COLL-POST", "FED-AUTH-EVT-POST"],
    async run(c) {
      const { f, endpoints } = await setup(c, []);
      const named = new Set(endpoints.map((e) => e.name));
      for (const [name, id] of [
        ["extendedList", "FED-AUTH-XL-POST"],
        ["collection", "FED-AUTH-COLL-POST"],
        ["events", "FED-AUTH-EVT-POST"],
      ] as const) {
        if (!(c.profile.clientAuth?.endpoints ?? []).includes(name))
          c.skipOnly(
            id,
            `the profile does not say the ${NAMES[name]} requires client authentication`,
            "not-declared",
          );
        else if (!named.has(name))
          c.skipOnly(id, `the ${NAMES[name]} cannot be probed (see FED-AUTH-PRIVATE-KEY-JWT)`, "dependency");
      }
      // A form POST (the Fed adds the assertion to the body) with other values in the query.
      const send = (e: Protected, body: [string, string][], query: [string, string][], label: string) =>
        c.http.post(withQuery(e.url, query), {
          form: Object.fromEntries(body),
          label: `${NAMES[e.name]}: ${label}`,
          tags: [TAGS[e.name]],
        });
      const ID: Record<Endpoint, string> = {
        extendedList: "FED-AUTH-XL-POST",
        collection: "FED-AUTH-COLL-POST",
        events: "FED-AUTH-EVT-POST",
      };
      for (const e of endpoints) {
        // Which parameters an endpoint reads shows only once it serves the client at all.
        const ok = await send(
          e,
          e.params.map(([k, v]) => [k, v]),
          [],
          "authenticated",
        );
        if (ok.status !== 200) {
          c.skipOnly(
            ID[e.name],
            `the ${NAMES[e.name]} refused an authenticated request (${ok.status}): see FED-AUTH-PRIVATE-KEY-JWT`,
            "dependency",
          );
          continue;
        }
        if (e.name === "extendedList") await xlPost(c, e, send);
        else if (e.name === "collection") await collPost(c, f, e, send);
        else await evtPost(c, e, send);
      }
    },
  }),
];

type Send = (
  e: Protected,
  body: [string, string][],
  query: [string, string][],
  label: string,
) => Promise<HttpResponse>;

/** The ids of an extended list page, its next, or why it is not a page. */
function xlPage(res: HttpResponse): { ids: string[]; next?: string; shape?: string } {
  const b = res.json;
  if (res.status !== 200 || !isObject(b) || !Array.isArray(b.immediate_subordinate_entities))
    return { ids: [], shape: `${res.status} ${quote(b ?? res.text.slice(0, 80), 120)}` };
  const ids = b.immediate_subordinate_entities.map((x) => (isObject(x) ? String(x.id) : quote(x, 60)));
  return { ids, ...(typeof b.next === "string" && b.next !== "" ? { next: b.next } : {}) };
}

const NOT_A_CURSOR = "idconform-not-a-cursor";

/**
 * A POST whose query string the endpoint refuses (400 invalid_request) shows nothing of which
 * parameters it reads: the document does not say a query string there must be taken.
 */
function queryRefused(c: Ctx, id: string, res: HttpResponse): boolean {
  if (res.status !== 400 || !isObject(res.json) || res.json.error !== "invalid_request") return false;
  c.partly(
    id,
    "the endpoint refuses a form POST that also has a query string (400 invalid_request): which parameters it reads is not shown",
    "not-exercised",
  );
  return true;
}

/**
 * Judges a page asked for with limit 1 in the body and 3 in the query: at most one entry, and
 * exactly one when the list has more (next); undefined when the list is too short to show.
 */
function limitFromBody(
  c: Ctx,
  id: string,
  what: string,
  res: HttpResponse,
  page: { ids: readonly string[]; next?: string | undefined; shape?: string | undefined },
): void {
  if (page.shape === undefined && page.ids.length <= 1 && page.next === undefined) {
    c.partly(id, `the ${what} holds one entry or none: a limit in the body cannot show`, "not-exercised");
    return;
  }
  c.check(id, page.shape === undefined && page.ids.length === 1, {
    expected: "one entry (the body's limit 1), not up to 3 (the query's)",
    actual: page.shape ?? `${page.ids.length} entries ${quote(page.ids, 200)}`,
    res,
    kind: page.shape !== undefined ? "wrong-status" : "wrong-value",
  });
}

/** FED-AUTH-XL-POST: limit and from in the body page the list; the query's say nothing. */
async function xlPost(c: Ctx, e: Protected, send: Send): Promise<void> {
  const id = "FED-AUTH-XL-POST";
  const mixed = await send(e, [["limit", "1"]], [["limit", "3"]], "limit 1 in the body, 3 in the query");
  const m = xlPage(mixed);
  if (queryRefused(c, id, mixed)) return;
  limitFromBody(c, id, "extended list", mixed, m);
  if (m.shape !== undefined || m.next === undefined) return;
  const second = await send(
    e,
    [
      ["limit", "1"],
      ["from", m.next],
    ],
    [["from", NOT_A_CURSOR]],
    "from (next of page 1) in the body, a foreign cursor in the query",
  );
  if (queryRefused(c, id, second)) return;
  const s = xlPage(second);
  c.check(id, s.shape === undefined && s.ids.length === 1 && s.ids[0] !== m.ids[0], {
    expected: "page 2 (the body's from): one entry, not page 1's",
    actual: s.shape ?? `${quote(s.ids, 200)} (page 1: ${quote(m.ids, 120)})`,
    res: second,
    kind: s.shape !== undefined ? "wrong-status" : "wrong-value",
  });
}

/** FED-AUTH-COLL-POST: a filter and limit in the body shape the answer; the query's do not. */
async function collPost(c: Ctx, f: Fed, e: Protected, send: Send): Promise<void> {
  const id = "FED-AUTH-COLL-POST";
  // An Intermediate collects under a superior anchor (omitted, its answer is empty); the anchor
  // goes in both places, so that only limit and entity_type differ.
  const hints = (await f.entityConfiguration()).payload.authority_hints;
  const anchor: [string, string][] =
    (await f.role()) === "intermediate" && Array.isArray(hints) && typeof hints[0] === "string"
      ? [["trust_anchor", hints[0]]]
      : [];
  const mixed = await send(
    e,
    [...anchor, ["limit", "1"]],
    [...anchor, ["limit", "3"]],
    "limit 1 in the body, 3 in the query",
  );
  if (!queryRefused(c, id, mixed)) limitFromBody(c, id, "collection", mixed, readCollPage(mixed));
  const type = `urn:idconform:${c.runId.slice(-6)}:no-such-type`;
  const none = await send(
    e,
    [...anchor, ["entity_type", type]],
    anchor,
    "an entity_type no entity has in the body, none in the query",
  );
  if (none.status === 400 && isObject(none.json) && none.json.error === "unsupported_parameter") {
    c.partly(id, "entity_type is not supported (400 unsupported_parameter)", "not-offered");
    return;
  }
  if (queryRefused(c, id, none)) return;
  const n = readCollPage(none);
  c.check(id, n.shape === undefined && n.ids.length === 0, {
    expected: "entities [] (the body's entity_type: no entity has it)",
    actual: n.shape ?? `${n.ids.length} entities ${quote(n.ids, 160)}`,
    res: none,
    kind: n.shape !== undefined ? "wrong-status" : "wrong-value",
  });
}

/** FED-AUTH-EVT-POST: the events statement is about the body's sub, not the query's. */
async function evtPost(c: Ctx, e: Protected, send: Send): Promise<void> {
  const sub = e.params[0]?.[1] ?? "";
  const other = `${c.profile.baseUrl.replace(/\/+$/, "")}/idconform-not-a-subordinate`;
  const res = await send(e, [["sub", sub]], [["sub", other]], "sub in the body, another in the query");
  if (queryRefused(c, "FED-AUTH-EVT-POST", res)) return;
  const d = res.status === 200 ? decodeStatement(res.text) : undefined;
  const got = d?.ok ? d.payload.sub : undefined;
  c.check("FED-AUTH-EVT-POST", got === sub, {
    expected: `200 with an events statement whose sub is the body's ${quote(sub)}`,
    actual:
      res.status !== 200
        ? `${res.status} ${res.text.slice(0, 160)}`
        : d?.ok
          ? `sub ${quote(got ?? null)}`
          : `not a statement: ${d?.why ?? ""}`,
    res,
    kind: res.status !== 200 ? "wrong-status" : "wrong-value",
  });
}
