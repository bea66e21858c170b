import { Hono } from "hono";
import { AS_WELL_KNOWN, PRE_AUTHORIZED_GRANT, wellKnownUrl } from "../../../src/protocols/vci.js";
import { endpoint, ISSUER_PATH, type VciContext } from "../context.js";
import { jsonResponse } from "../http/reply.js";
import { wantsJwt } from "./accept.js";
import { issuerMetadata } from "./issuer-metadata.js";
import { signMetadata } from "./signed-metadata.js";

/** The JWT VC issuer metadata well-known segment (SD-JWT VC / JWT VC key discovery). */
export const JWT_VC_ISSUER_WELL_KNOWN = "/.well-known/jwt-vc-issuer";

const pathOf = (url: string): string => new URL(url).pathname;

/**
 * RFC 8414 Authorization Server metadata: the issuer is its own Authorization Server
 * (specs/000 Resources: `authorization_servers` omitted), with anonymous pre-authorized access.
 */
function authorizationServerMetadata(ctx: VciContext): Record<string, unknown> {
  return {
    issuer: ctx.faults.has("as-issuer-mismatch") ? ctx.origin() : ctx.issuer(),
    authorization_endpoint: endpoint(ctx, "authorize"),
    token_endpoint: endpoint(ctx, "token"),
    response_types_supported: ["code"],
    grant_types_supported: ctx.faults.has("as-grant-types-no-pre-authorized")
      ? ["authorization_code"]
      : ["authorization_code", PRE_AUTHORIZED_GRANT],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    "pre-authorized_grant_anonymous_access_supported": true,
    authorization_details_types_supported: [ctx.ids.authorizationDetailsType],
    // Stryker disable next-line ArrayDeclaration: servers MAY leave supported scope values unadvertised (RFC 8414 §2 scopes_supported)
    scopes_supported: ["identity_sd_jwt", "identity_jwt_vc"],
  };
}

/**
 * The discovery documents: Credential Issuer Metadata (JSON, or signed with
 * `Accept: application/jwt`) at the well-known URL inserted before the issuer's path
 * (specs/000 Endpoints: metadata), the Authorization Server metadata, and the JWT VC
 * issuer metadata carrying the credential signing key.
 */
export function metadataRoutes(ctx: VciContext): Hono {
  const app = new Hono();
  // Paths are fixed at construction: the origin (port) is not known yet, the issuer's path is.
  const probe = `https://127.0.0.1${ISSUER_PATH}`;
  const metadataPath = ctx.faults.has("well-known-appended")
    ? `${pathOf(probe)}${ctx.ids.wellKnown}`
    : pathOf(wellKnownUrl(probe, ctx.ids.wellKnown));
  app.get(metadataPath, async (c) => {
    const metadata = issuerMetadata(ctx);
    const vary = { vary: "Accept" };
    if (wantsJwt(c.req.header("accept"))) {
      const jwtType = ctx.faults.has("signed-metadata-json-type") ? "application/json" : "application/jwt";
      return new Response(await signMetadata(ctx, metadata), {
        headers: { ...vary, "content-type": jwtType },
      });
    }
    const type = ctx.faults.has("metadata-not-json") ? "text/plain" : "application/json";
    return jsonResponse(metadata, 200, vary, type);
  });
  app.get(pathOf(wellKnownUrl(probe, AS_WELL_KNOWN)), () => jsonResponse(authorizationServerMetadata(ctx)));
  app.get(pathOf(wellKnownUrl(probe, JWT_VC_ISSUER_WELL_KNOWN)), () =>
    jsonResponse({ issuer: ctx.issuer(), jwks: { keys: [ctx.keys.credential.publicJwk] } }),
  );
  return app;
}
