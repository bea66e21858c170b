/** The quality an Accept header gives `type` (exact, `type/*` or `*\/*`), 0 when absent. */
function quality(accept: string, type: string): { q: number; exact: boolean } {
  let best = { q: 0, exact: false };
  for (const range of accept.split(",")) {
    const [media = "", ...params] = range.split(";").map((s) => s.trim().toLowerCase());
    const q = Number(params.find((p) => p.startsWith("q="))?.slice(2) ?? "1");
    const matches = media === type || media === "*/*" || media === `${type.split("/")[0]}/*`;
    if (matches && Number.isFinite(q) && (media === type || !best.exact)) {
      best = { q, exact: media === type };
      if (media === type) break;
    }
  }
  return best;
}

/**
 * Whether the client asked for signed metadata (specs/000 Endpoints: metadata, "the issuer
 * SHOULD match the requested Accept"): `application/jwt` is named with q > 0 and
 * `application/json` is not preferred over it. Anything else, or no Accept, gets JSON.
 */
export function wantsJwt(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const jwt = quality(accept, "application/jwt");
  if (!jwt.exact || jwt.q <= 0) return false;
  const json = quality(accept, "application/json");
  return json.exact ? jwt.q > json.q : jwt.q >= json.q;
}
