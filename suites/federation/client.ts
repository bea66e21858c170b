import type { JWK } from "jose";
import type { CheckContext } from "../../src/engine/check.js";
import type { HttpResponse, RecordingClient } from "../../src/http/client.js";
import { authenticated, clientOf, protectedUrls, signClientAssertion } from "./client-auth.js";
import type { FederationProfile } from "./profile.js";
import { decodeStatement, isObject, keysOf, verifyWith, type Json } from "./statements.js";

export type Ctx = CheckContext<FederationProfile>;

/** The media type of Entity Statements (public-spec-facts §2). */
export const STATEMENT_TYPE = "application/entity-statement+jwt";
export const WELL_KNOWN = "/.well-known/openid-federation";

/** The target's Entity Configuration as read, and what it gives the other checks. */
export interface EntityConfiguration {
  readonly res: HttpResponse;
  readonly header: Json;
  readonly payload: Json;
  /** Its own jwks: every statement the target signs later is verified with these. */
  readonly keys: readonly JWK[];
  /** Undefined when the Entity Configuration verifies with its own keys, else why not. */
  readonly unverified: string | undefined;
}

/** The Entity Identifier without a trailing slash, and its well-known URL. */
export function wellKnownUrl(entityId: string): string {
  return `${entityId.replace(/\/+$/, "")}${WELL_KNOWN}`;
}

/** The endpoints every Trust Anchor and Intermediate publishes (public-spec-facts §2). */
const BASE_ENDPOINTS: readonly string[] = ["federation_fetch_endpoint", "federation_list_endpoint"];

const typeIs = (res: HttpResponse, t: string): boolean =>
  new RegExp(`^${t.replace(/[/+.]/g, "\\$&")}\\s*(;|$)`, "i").test(res.header("content-type") ?? "");

/**
 * Reads the target's Entity Configuration for a check. A check that needs its keys or its
 * endpoints and cannot have them skips, naming FED-EC-* (which its own check judges).
 */
export class Fed {
  private ec: Promise<EntityConfiguration> | undefined;

  constructor(readonly c: Ctx) {
    if (c.profile.clientAuth) useClientAuth(this);
  }

  /** The Entity Configuration if this Fed has asked for it (client authentication reads its endpoints). */
  get entityConfigurationAsked(): Promise<EntityConfiguration> | undefined {
    return this.ec;
  }

  get entityId(): string {
    return this.c.profile.baseUrl;
  }

  /** The Entity Configuration, fetched once per check. */
  entityConfiguration(): Promise<EntityConfiguration> {
    this.ec ??= this.fetchEc();
    return this.ec;
  }

  private async fetchEc(): Promise<EntityConfiguration> {
    const res = await this.c.http.get(wellKnownUrl(this.entityId), {
      label: "Entity Configuration",
      headers: { accept: STATEMENT_TYPE },
    });
    return readEntityConfiguration(res);
  }

  /** The Entity Configuration, verified: skips the check when it is not (FED-EC-SELF-SIGNED judges it). */
  async trusted(): Promise<EntityConfiguration> {
    const ec = await this.entityConfiguration();
    if (ec.res.status !== 200)
      this.c.skip(`the Entity Configuration answered ${ec.res.status}: see FED-EC-WELL-KNOWN`, "dependency");
    if (ec.unverified !== undefined)
      this.c.skip(
        `the Entity Configuration cannot be trusted (${ec.unverified}): see FED-EC-SELF-SIGNED`,
        "dependency",
      );
    return ec;
  }

  /** `federation_entity` metadata of the (verified) Entity Configuration. */
  async federationEntity(): Promise<Json> {
    const ec = await this.trusted();
    const md = isObject(ec.payload.metadata) ? ec.payload.metadata : {};
    return isObject(md.federation_entity) ? md.federation_entity : {};
  }

  /** An endpoint URL the Entity Configuration publishes; skips as "not offered" when it publishes none. */
  async endpoint(name: string): Promise<string> {
    const fe = await this.federationEntity();
    const url = fe[name];
    // fetch and list are no option of a Trust Anchor or Intermediate (FED-EC-FEDERATION-ENTITY
    // judges their absence): without them the check depends on that requirement, not on an offer.
    if (url === undefined && BASE_ENDPOINTS.includes(name))
      this.c.skip(
        `the Entity Configuration publishes no ${name} in metadata.federation_entity: see FED-EC-FEDERATION-ENTITY`,
        "dependency",
      );
    if (url === undefined)
      this.c.skip(`not offered: the Entity Configuration publishes no ${name}`, "not-offered");
    if (typeof url !== "string" || !/^https?:\/\//.test(url))
      this.c.skip(`${name} is not a URL: see the FED-EC-*-URL requirements`, "dependency");
    return url;
  }

  /** The target's role: as the profile declares it, else read from its authority_hints. */
  async role(): Promise<"anchor" | "intermediate"> {
    if (this.c.profile.role) return this.c.profile.role;
    const ec = await this.entityConfiguration();
    return ec.payload.authority_hints === undefined ? "anchor" : "intermediate";
  }
}

/** The Feds of each check's HTTP client: the first installs client authentication on it. */
const fedsOf = new WeakMap<RecordingClient, Fed[]>();

/**
 * Sends every request of the check to an endpoint the profile's `clientAuth` names as an
 * authenticated form POST (`client-auth.ts`), so that every check goes through it unchanged. The
 * endpoints are read from the Entity Configuration the check's Feds fetched; the assertion is
 * registered as a secret (the key never leaves `clientOf`).
 */
function useClientAuth(f: Fed): void {
  const http = f.c.http;
  const feds = fedsOf.get(http);
  if (feds) {
    feds.push(f);
    return;
  }
  const all = [f];
  fedsOf.set(http, all);
  const client = clientOf(f.c.profile, f.c.provided);
  if (!client) return;
  http.onRequest(async (req) => {
    if (new URL(req.url).pathname.endsWith(WELL_KNOWN)) return req;
    const asked = all.map((x) => x.entityConfigurationAsked).find((p) => p !== undefined);
    if (asked === undefined) return req;
    let ec: EntityConfiguration;
    try {
      ec = await asked;
    } catch {
      return req; // the check that asked for it meets the same failure and reports it
    }
    const iss = ec.payload.iss;
    const base = f.c.profile.baseUrl;
    const aud = typeof iss === "string" && iss.replace(/\/+$/, "") === base.replace(/\/+$/, "") ? iss : base;
    let signed = false;
    const out = await authenticated(req, protectedUrls(f.c.profile, ec.payload), async () => {
      const token = await signClientAssertion(client, aud);
      f.c.secret(token, "CLIENT_ASSERTION");
      signed = true;
      return token;
    });
    return signed ? { ...out, tags: [...(out.tags ?? []), CLIENT_AUTHENTICATED] } : out;
  });
  // One root cause, said once: when the target refuses the assertion the harness makes as the
  // specification says (FED-AUTH-PRIVATE-KEY-JWT, which the client-auth checks judge on requests
  // tagged AUTH_PROBE), no check can judge what the endpoint would have answered: it skips,
  // naming that requirement, instead of failing on a 401 that says nothing of its own rule.
  http.onResponse((sent, res) => {
    if (!sent.tags.includes(CLIENT_AUTHENTICATED) || sent.tags.includes(AUTH_PROBE)) return;
    if (res.status !== 401) return;
    const error = (res.json as { error?: unknown } | undefined)?.error;
    if (error !== undefined && error !== "invalid_client") return;
    f.c.skip(
      `the target refused the harness's client assertion (401${error !== undefined ? " invalid_client" : ""}, ${sent.label ?? sent.url.pathname}): see FED-AUTH-PRIVATE-KEY-JWT`,
      "dependency",
    );
  });
}

/** Tag the Fed adds to a request it authenticated with a client assertion. */
const CLIENT_AUTHENTICATED = "fed-client-authenticated";

/**
 * Tag of a request that judges client authentication itself (FED-AUTH-PRIVATE-KEY-JWT): a
 * refusal of its assertion is a finding of its check, not a reason to skip it.
 */
export const AUTH_PROBE = "fed-auth-probe";

/** Reads an Entity Configuration response: decoded, and verified with its own jwks. */
export async function readEntityConfiguration(res: HttpResponse): Promise<EntityConfiguration> {
  const decoded = decodeStatement(res.text);
  if (!decoded.ok) return { res, header: {}, payload: {}, keys: [], unverified: decoded.why };
  const { keys } = keysOf(decoded.payload.jwks);
  return {
    res,
    header: decoded.header,
    payload: decoded.payload,
    keys,
    unverified: await verifyWith(res.text, decoded.header, keys),
  };
}

export { typeIs };
