import { KNOWN_SCOPES } from "./scope.js";

/**
 * The authorization server metadata (RFC 8414 §2; specs/002 area C Authentication 5).
 * There is no authorization endpoint (client credentials only), so no response types.
 */
export function authorizationServerMetadata(issuer: string, tokenEndpoint: string): Record<string, unknown> {
  return {
    issuer,
    token_endpoint: tokenEndpoint,
    grant_types_supported: ["client_credentials"],
    token_endpoint_auth_methods_supported: ["private_key_jwt"],
    token_endpoint_auth_signing_alg_values_supported: ["ES256"],
    scopes_supported: [...KNOWN_SCOPES],
  };
}
