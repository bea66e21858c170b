import type { JWK } from "jose";
import type { CheckContext } from "../../src/engine/check.js";
import type { HttpResponse } from "../../src/http/client.js";
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

const typeIs = (res: HttpResponse, t: string): boolean =>
  new RegExp(`^${t.replace(/[/+.]/g, "\\$&")}\\s*(;|$)`, "i").test(res.header("content-type") ?? "");

/**
 * Reads the target's Entity Configuration for a check. A check that needs its keys or its
 * endpoints and cannot have them skips, naming FED-EC-* (which its own check judges).
 */
export class Fed {
  private ec: Promise<EntityConfiguration> | undefined;

  constructor(readonly c: Ctx) {}

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
