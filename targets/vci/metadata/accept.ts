/**
 * The weight an Accept header gives `type` (RFC 9110 §12.5.1): that of the most specific
 * matching range (`type` itself, then `<major>/*`, then `*\/*`), 0 when none matches;
 * `exact` when `type` itself is named.
 */
function quality(accept: string, type: string): { q: number; exact: boolean } {
  const major = type.split("/")[0];
  let best = { q: 0, rank: -1 };
  for (const range of accept.split(",")) {
    // Stryker disable next-line StringLiteral: split always yields a first element, the default never applies
    const [media = "", ...params] = range.split(";").map((s) => s.trim().toLowerCase());
    // Stryker disable next-line StringLiteral: a media-type parameter before the weight is not defined for metadata (specs/000 names none)
    const q = Number(params.find((p) => p.startsWith("q="))?.slice(2) ?? "1");
    const rank = media === type ? 2 : media === `${major}/*` ? 1 : media === "*/*" ? 0 : -1;
    // Stryker disable next-line EqualityOperator: a range repeated with another weight has no meaning in RFC 9110 §12.5.1 (which one counts is open)
    if (rank <= best.rank) continue;
    // Stryker disable next-line ConditionalExpression: a malformed weight (not a qvalue, RFC 9110 §12.4.2): what the server answers is open
    if (Number.isFinite(q)) best = { q, rank };
  }
  // Stryker disable next-line ConditionalExpression: `exact` decides only a wildcard-matched application/jwt (open, see wantsJwt) and ties (open)
  return { q: best.q, exact: best.rank === 2 };
}

/**
 * Whether the client asked for signed metadata (specs/000 Endpoints: metadata, "the issuer
 * SHOULD match the requested Accept"): `application/jwt` is named with q > 0 and
 * `application/json` is not preferred over it. Anything else, or no Accept, gets JSON.
 */
export function wantsJwt(accept: string | undefined): boolean {
  // Stryker disable next-line BooleanLiteral: without Accept every type is acceptable (RFC 9110 §12.5.1): JSON or JWT is the server's choice
  if (accept === undefined) return false;
  const jwt = quality(accept, "application/jwt");
  // Stryker disable next-line ConditionalExpression: whether application/jwt reached only through `*\/*` or `application/*` asks for signed metadata is open (specs/000: the Accept header "signals signed-metadata support"; this issuer wants it named)
  if (!jwt.exact) return false;
  if (jwt.q <= 0) return false;
  const json = quality(accept, "application/json");
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the branches, and `>` against `>=`, differ only on equal weights, where RFC 9110 §12.5.1 leaves the choice to the server (this one prefers the type named exactly)
  return json.exact ? jwt.q > json.q : jwt.q >= json.q;
}
