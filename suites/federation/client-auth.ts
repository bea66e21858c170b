import { randomUUID } from "node:crypto";
import { importJWK, SignJWT, type JWK } from "jose";
import type { HttpRequest } from "../../src/http/client.js";
import type { FederationProfile } from "./profile.js";
import { mockIds } from "./setup.js";
import { isObject, type Json } from "./statements.js";

/** RFC 7523 §2.2: the client_assertion_type of a JWT client assertion. */
export const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/** A request tagged so is sent as the check built it: no client assertion is added. */
export const NO_CLIENT_AUTH = "fed-no-client-auth";

/** How long a harness assertion lives: short, well inside any verifier's bound. */
const LIFETIME_SECONDS = 60;

type Endpoint = NonNullable<FederationProfile["clientAuth"]>["endpoints"][number];

/** The `federation_entity` metadata member of each endpoint a profile may name. */
export const METADATA_OF: Record<Endpoint, string> = {
  extendedList: "federation_extended_list_endpoint",
  collection: "federation_collection_endpoint",
  events: "federation_subordinate_events_endpoint",
};

/** The profile's client (`clientAuth`): who the harness authenticates as, and with what key. */
export interface ClientIdentity {
  readonly clientId: string;
  /** The private JWK, with `alg` (the profile loader sets it). Never shown anywhere. */
  readonly jwk: JWK & { alg: string };
}

/**
 * The profile's client: its `clientId`, or the run's mock leaf (which publishes the key) when
 * the profile gives none; undefined without `clientAuth` or when no mock leaf runs.
 */
export function clientOf(
  p: FederationProfile,
  provided: Record<string, unknown>,
): ClientIdentity | undefined {
  if (!p.clientAuth) return undefined;
  const clientId = p.clientAuth.clientId ?? mockIds(provided)?.leaf;
  if (clientId === undefined) return undefined;
  return { clientId, jwk: JSON.parse(p.clientAuth.clientKey) as JWK & { alg: string } };
}

/**
 * A private_key_jwt client assertion (public-spec-facts §2 Endpoints): iss and sub the client's
 * Entity Identifier, aud the responder's, a fresh jti, iat now and a short exp; `claims`
 * replace any of them (a negative probe's near-miss).
 */
export async function signClientAssertion(
  client: ClientIdentity,
  audience: string,
  claims: Json = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const payload: Json = {
    iss: client.clientId,
    sub: client.clientId,
    aud: audience,
    jti: randomUUID(),
    iat: now,
    exp: now + LIFETIME_SECONDS,
    ...claims,
  };
  const { alg, kid } = client.jwk;
  return new SignJWT(payload)
    .setProtectedHeader({ alg, ...(typeof kid === "string" ? { kid } : {}) })
    .sign(await importJWK(client.jwk, alg));
}

/** The form body of `params` plus a client assertion. */
export function formWith(params: URLSearchParams, assertion: string | undefined): string {
  const body = new URLSearchParams(params);
  if (assertion !== undefined) {
    body.append("client_assertion_type", ASSERTION_TYPE);
    body.append("client_assertion", assertion);
  }
  return body.toString();
}

/** The endpoint URLs the profile says require client authentication, as the Entity Configuration names them. */
export function protectedUrls(p: FederationProfile, ecPayload: Json): URL[] {
  const md = isObject(ecPayload.metadata) ? ecPayload.metadata : {};
  const fe = isObject(md.federation_entity) ? md.federation_entity : {};
  const out: URL[] = [];
  for (const e of p.clientAuth?.endpoints ?? []) {
    const v = fe[METADATA_OF[e]];
    if (typeof v !== "string") continue;
    try {
      out.push(new URL(v));
    } catch {
      // Not a URL: the FED-EC-*-URL checks say so; nothing is sent there anyway.
    }
  }
  return out;
}

/** Which of `urls` the request goes to (same origin and path; the endpoint's own query kept). */
function target(urls: readonly URL[], url: URL): URL | undefined {
  return urls.find((u) => u.origin === url.origin && u.pathname === url.pathname);
}

const isForm = (req: HttpRequest): boolean =>
  req.form !== undefined ||
  Object.entries(req.headers ?? {}).some(
    ([k, v]) => k.toLowerCase() === "content-type" && /^application\/x-www-form-urlencoded\s*(;|$)/i.test(v),
  );

/** The request's headers with the form content type (any other spelling of the name dropped). */
const formHeaders = (req: HttpRequest): Record<string, string> => ({
  ...Object.fromEntries(
    Object.entries(req.headers ?? {}).filter(([k]) => k.toLowerCase() !== "content-type"),
  ),
  "content-type": "application/x-www-form-urlencoded",
});

/**
 * What a request to an endpoint that requires client authentication becomes (public-spec-facts
 * §2 Endpoints; specs/001 Endpoints and Authentication 1): a GET becomes a form POST with its
 * query parameters in the body (the endpoint URL's own query stays), a form POST keeps its body
 * and query; either gets a fresh client assertion. Other requests pass unchanged.
 */
export async function authenticated(
  req: HttpRequest,
  urls: readonly URL[],
  assertion: () => Promise<string>,
): Promise<HttpRequest> {
  if (req.tags?.includes(NO_CLIENT_AUTH)) return req;
  const url = new URL(req.url);
  const endpoint = target(urls, url);
  if (endpoint === undefined) return req;
  const method = (req.method ?? "GET").toUpperCase();
  if (method === "GET") {
    const own = [...endpoint.searchParams];
    const all = [...url.searchParams];
    const keepsOwn = own.every(([k, v], i) => all[i]?.[0] === k && all[i]?.[1] === v);
    const moved = new URLSearchParams(keepsOwn ? all.slice(own.length) : all);
    const u = new URL(url);
    u.search = keepsOwn ? endpoint.search : "";
    const { form: _f, json: _j, ...rest } = req;
    return {
      ...rest,
      method: "POST",
      url: u.href,
      headers: formHeaders(req),
      body: formWith(moved, await assertion()),
    };
  }
  if (method === "POST" && isForm(req)) {
    const params = new URLSearchParams(req.form ?? req.body ?? "");
    if (params.has("client_assertion")) return req;
    const { form: _f, ...rest } = req;
    return {
      ...rest,
      headers: formHeaders(req),
      body: formWith(params, await assertion()),
    };
  }
  return req;
}
