/** Query parameters whose values are credentials in an OAuth front channel. */
const SECRET_PARAM = /code|token|secret|pass|assertion|verifier|session|cookie|key/i;

/** Replaces every given secret (4+ characters, also URL-encoded) with `***`. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length < 4) continue;
    for (const form of new Set([s, encodeURIComponent(s)])) out = out.split(form).join("***");
  }
  return out;
}

/**
 * A URL fit for a trail or an error message: the values of secret-ish query parameters
 * (an authorization code, a token, a password) are `***`, a fragment too, and then the given
 * secrets wherever they still occur.
 */
export function redactUrl(url: string, secrets: readonly string[]): string {
  let out = url;
  try {
    const u = new URL(url);
    for (const k of new Set(u.searchParams.keys())) if (SECRET_PARAM.test(k)) u.searchParams.set(k, "***");
    if (u.hash.includes("=")) u.hash = "***";
    out = u.href.replace(/%2A%2A%2A/g, "***");
  } catch {
    // not a URL (about:blank and the like): only the secrets go
  }
  return scrub(out, secrets);
}
