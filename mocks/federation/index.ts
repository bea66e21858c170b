import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import { Hono } from "hono";
import { serveApp } from "../../src/http/serve.js";
import type { MockModule } from "../../src/engine/mock.js";
import type { RunningServer } from "../../src/engine/target.js";

const WELL_KNOWN = "/.well-known/openid-federation";
/** How long a mock Entity Configuration is valid. */
const LIFETIME_SECONDS = 86_400;

/** One mock federation entity: its Entity Identifier and its Federation Entity Key. */
export interface MockEntity {
  readonly id: string;
  /** The private signing key (ES256 unless given another); never shown: `jwks` is what may be published. */
  readonly privateJwk: JWK & { alg: string; kid: string };
  readonly jwks: { readonly keys: readonly JWK[] };
}

export interface MockFederation extends RunningServer {
  /** A leaf entity (authority_hints the target's Entity Identifier when given). */
  readonly leaf: MockEntity;
  /** An Intermediate (authority_hints the target's Entity Identifier when given). */
  readonly intermediate: MockEntity;
  /** A Trust Anchor besides the target (the collection's trust_anchor when the profile names none). */
  readonly anchor: MockEntity;
  /** What a vendor needs to register the entities: their identifiers and public JWKS. */
  readonly info: string;
}

export interface MockFederationOptions {
  readonly port?: number;
  readonly host?: string;
  /** The URL the entities are reached at from the target, when it is not the server's own. */
  readonly publicUrl?: string;
  /** The target's Entity Identifier: the leaf's and the Intermediate's superior. */
  readonly authorityHint?: string;
  /** The leaf's private JWK (with alg, as a profile gives it), when the harness authenticates as the leaf with a key the target knows. */
  readonly leafKey?: JWK;
}

async function newEntity(id: string, given?: JWK): Promise<MockEntity> {
  const jwk = given ?? (await exportJWK((await generateKeyPair("ES256", { extractable: true })).privateKey));
  const alg = typeof jwk.alg === "string" ? jwk.alg : "ES256";
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, kid: givenKid, key_ops: _ops, ...pub } = jwk;
  const kid = typeof givenKid === "string" ? givenKid : await calculateJwkThumbprint(pub);
  const publicJwk = { ...pub, alg, use: "sig", kid };
  return { id, privateJwk: { ...jwk, alg, kid }, jwks: { keys: [publicJwk] } };
}

/**
 * The Entity Configuration of `e` (public-spec-facts §2): typ entity-statement+jwt, kid, signed
 * with its own key; iss = sub = its Entity Identifier, iat, exp, jwks, metadata, and
 * authority_hints for an entity that is not a Trust Anchor.
 */
async function entityConfiguration(
  e: MockEntity,
  metadata: object,
  hints: string[] | undefined,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: e.id,
    sub: e.id,
    iat: now,
    exp: now + LIFETIME_SECONDS,
    jwks: e.jwks,
    metadata,
    ...(hints ? { authority_hints: hints } : {}),
  })
    .setProtectedHeader({ alg: e.privateJwk.alg, kid: e.privateJwk.kid, typ: "entity-statement+jwt" })
    .sign(await importJWK(e.privateJwk, e.privateJwk.alg));
}

const error = (code: string, description: string, status: 400 | 404) =>
  new Response(JSON.stringify({ error: code, error_description: description }), {
    status,
    headers: { "content-type": "application/json" },
  });

/**
 * Mock federation entities on loopback (design: the mock federation the collector can crawl):
 * a leaf at `/leaf`, an Intermediate at `/intermediate` and a Trust Anchor at `/anchor`, each
 * publishing its Entity Configuration at `<id>/.well-known/openid-federation`, signed with its
 * own key. The Intermediate and the anchor have no subordinates of their own: their list is
 * empty and their fetch endpoint answers not_found. Fresh keys each start.
 */
export async function startMockFederation(o: MockFederationOptions = {}): Promise<MockFederation> {
  const app = new Hono();
  /** Path of each entity → whether it is an authority (serves list and fetch) and its Entity Configuration. */
  const entities = new Map<string, { authority: boolean; ec: () => Promise<string> }>();
  app.get("*", async (c) => {
    const url = new URL(c.req.url);
    const path = url.pathname;
    if (path.endsWith(WELL_KNOWN)) {
      const found = entities.get(path.slice(0, -WELL_KNOWN.length));
      if (found)
        return new Response(await found.ec(), {
          headers: { "content-type": "application/entity-statement+jwt" },
        });
    }
    const slash = path.lastIndexOf("/");
    const found = entities.get(path.slice(0, slash));
    const endpoint = path.slice(slash + 1);
    if (found?.authority && endpoint === "list") return c.json([]);
    if (found?.authority && endpoint === "fetch") {
      return url.searchParams.get("sub") === null
        ? error("invalid_request", "sub is required", 400)
        : error("not_found", "no Immediate Subordinate with that identifier", 404);
    }
    return error("not_found", "nothing is served at this path", 404);
  });
  const server = await serveApp(app, {
    ...(o.port !== undefined ? { port: o.port } : {}),
    ...(o.host !== undefined ? { host: o.host } : {}),
  });
  try {
    const base = (o.publicUrl ?? server.url).replace(/\/+$/, "");
    const leaf = await newEntity(`${base}/leaf`, o.leafKey);
    const intermediate = await newEntity(`${base}/intermediate`);
    const anchor = await newEntity(`${base}/anchor`);
    const hints = o.authorityHint !== undefined ? [o.authorityHint] : undefined;
    const authority = (e: MockEntity) => ({
      federation_entity: {
        organization_name: "idconform mock federation",
        federation_fetch_endpoint: `${e.id}/fetch`,
        federation_list_endpoint: `${e.id}/list`,
      },
    });
    const leafMetadata = { federation_entity: { organization_name: "idconform mock leaf" } };
    const pathOf = (e: MockEntity): string => new URL(e.id).pathname;
    entities.set(pathOf(leaf), {
      authority: false,
      ec: () => entityConfiguration(leaf, leafMetadata, hints),
    });
    entities.set(pathOf(intermediate), {
      authority: true,
      ec: () => entityConfiguration(intermediate, authority(intermediate), hints),
    });
    entities.set(pathOf(anchor), {
      authority: true,
      ec: () => entityConfiguration(anchor, authority(anchor), undefined),
    });
    const info = [leaf, intermediate, anchor]
      .map(
        (e, i) =>
          `${["leaf", "intermediate", "trust anchor"][i]}: ${e.id}\n  jwks: ${JSON.stringify(e.jwks)}`,
      )
      .join("\n");
    return { ...server, leaf, intermediate, anchor, info: `${info}\n` };
  } catch (err) {
    await server.close();
    throw err;
  }
}

const mock: MockModule = {
  role: "federation",
  description:
    "mock federation entities: a leaf, an Intermediate and a Trust Anchor with signed Entity Configurations",
  start: (opts) =>
    startMockFederation({
      ...(opts.port !== undefined ? { port: opts.port } : {}),
      ...(opts.host !== undefined ? { host: opts.host } : {}),
    }),
};
export default mock;
