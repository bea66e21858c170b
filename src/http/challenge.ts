import { quote } from "../engine/quote.js";
import { prefix } from "./client.js";

// WWW-Authenticate challenges (RFC 9110 §11.6.1) and the Bearer scheme's attributes (RFC 6750
// §3), read the same way by every suite that judges a protected resource's refusals.

/** The first characters of `text` outside `allowed` (one character's class), as code points and positions. */
export function unsafeShown(text: string, allowed: RegExp = /^[\x20-\x21\x23-\x5B\x5D-\x7E]$/): string {
  const bad: string[] = [];
  for (const [i, ch] of [...text].entries()) {
    if (allowed.test(ch)) continue;
    bad.push(`U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")} at ${i}`);
    if (bad.length === 3) break;
  }
  return bad.join(", ");
}

/** RFC 9110 §5.6.2 token and §11.2 token68. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*/;
/** RFC 9110 §5.6.4 quoted-string (qdtext or quoted-pair, obs-text included). */
const QUOTED = /^"((?:[\t \x21\x23-\x5B\x5D-\x7E\x80-\xFF]|\\[\t \x21-\x7E\x80-\xFF])*)"/;

export interface Challenge {
  readonly scheme: string;
  token68?: string;
  readonly params: { name: string; value: string; quoted: boolean }[];
}

/**
 * Parses a WWW-Authenticate value by RFC 9110 §11.6.1 (`#challenge`, `challenge = auth-scheme
 * [ 1*SP ( token68 / #auth-param ) ]`, `auth-param = token BWS "=" BWS ( token /
 * quoted-string )`); a string saying where it breaks the grammar otherwise. A comma followed by
 * `name=` continues the challenge's parameters; one followed by anything else starts a challenge.
 */
export function parseChallenges(value: string): Challenge[] | string {
  const out: Challenge[] = [];
  let i = 0;
  const rest = (): string => value.slice(i);
  const ows = (): void => {
    while (value[i] === " " || value[i] === "\t") i++;
  };
  const listGap = (): void => {
    while (value[i] === " " || value[i] === "\t" || value[i] === ",") i++;
  };
  const at = (): string => (i >= value.length ? "at the end" : `at ${quote(prefix(rest(), 24))}`);
  const startsParam = (): boolean =>
    /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+[ \t]*=/.test(rest()) && !/^[A-Za-z0-9\-._~+/]+=+[ \t]*(,|$)/.test(rest());
  for (listGap(); i < value.length; listGap()) {
    const scheme = TOKEN.exec(rest())?.[0];
    if (scheme === undefined) return `an auth-scheme was expected ${at()}`;
    i += scheme.length;
    const ch: Challenge = { scheme, params: [] };
    out.push(ch);
    if (i >= value.length || value[i] === ",") continue;
    if (value[i] !== " ") return `after ${scheme} a space was expected ${at()}`;
    ows();
    if (i >= value.length || value[i] === ",") continue;
    if (!startsParam()) {
      const t68 = TOKEN68.exec(rest())?.[0];
      if (t68 === undefined) return `after ${scheme} a token68 or an auth-param was expected ${at()}`;
      i += t68.length;
      ch.token68 = t68;
      ows();
      if (i < value.length && value[i] !== ",") return `after ${scheme} ${t68} a comma was expected ${at()}`;
      continue;
    }
    for (;;) {
      const name = TOKEN.exec(rest())![0];
      i += name.length;
      ows();
      i++; // the "=" startsParam saw
      ows();
      const q = QUOTED.exec(rest());
      const t = q ? undefined : TOKEN.exec(rest())?.[0];
      if (q) {
        ch.params.push({ name, value: q[1]!.replace(/\\(.)/g, "$1"), quoted: true });
        i += q[0].length;
      } else if (t !== undefined) {
        ch.params.push({ name, value: t, quoted: false });
        i += t.length;
      } else return `the value of ${name} is neither a token nor a quoted-string ${at()}`;
      ows();
      if (i >= value.length) break;
      if (value[i] !== ",") return `a comma was expected after ${name} ${at()}`;
      listGap();
      if (i >= value.length || !startsParam()) break;
    }
  }
  if (out.length === 0) return "it holds no challenge";
  return out;
}

/** RFC 6750 §3 character sets of the Bearer attributes (scope: scope-tokens separated by single spaces). */
const BEARER_VALUES: Readonly<Record<string, RegExp>> = {
  error: /^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/,
  error_description: /^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/,
  error_uri: /^[\x21\x23-\x5B\x5D-\x7E]+$/,
  scope: /^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/,
};

/** The excluded characters of a Bearer attribute's value, for a finding ("" when it is only empty or mis-spaced). */
function shownIn(value: string, name: string): string {
  const spaceAllowed = name === "error" || name === "error_description" || name === "scope";
  const bad = unsafeShown(value, spaceAllowed ? undefined : /^[\x21\x23-\x5B\x5D-\x7E]$/);
  return bad === "" ? "" : ` (${bad})`;
}

/**
 * What is malformed in a WWW-Authenticate value: its grammar (RFC 9110 §11.6.1), and in a
 * Bearer challenge (RFC 6750 §3) a token68 in place of attributes, an attribute twice, a realm
 * not quoted (RFC 9110 §11.5), or error, error_description, error_uri or scope with characters
 * RFC 6750 §3 excludes. Looser than RFC 6750 §3's "MUST be followed by one or more auth-param
 * values": the bare scheme `Bearer` passes, as RFC 9110 §11.6.1 makes parameters optional and
 * a challenge naming nothing is unambiguous; what fails is a challenge that cannot be read.
 */
export function challengeProblem(value: string): string | undefined {
  const parsed = parseChallenges(value);
  if (typeof parsed === "string") return parsed;
  for (const ch of parsed) {
    if (ch.scheme.toLowerCase() !== "bearer") continue;
    if (ch.token68 !== undefined)
      return `the Bearer challenge is followed by ${quote(prefix(ch.token68, 40))}, not by name=value attributes`;
    const seen = new Set<string>();
    for (const p of ch.params) {
      const name = p.name.toLowerCase();
      if (seen.has(name)) return `the Bearer attribute ${p.name} appears more than once`;
      seen.add(name);
      if (name === "realm" && !p.quoted) return "realm is not a quoted-string";
      const allowed = BEARER_VALUES[name];
      if (allowed && !allowed.test(p.value))
        return `the Bearer attribute ${p.name} is empty or has characters RFC 6750 §3 excludes${shownIn(p.value, name)}`;
    }
  }
  return undefined;
}

/** The first Bearer challenge of a WWW-Authenticate value, or undefined (none, or a value that cannot be read). */
export function bearerChallenge(value: string | undefined): Challenge | undefined {
  if (value === undefined) return undefined;
  const parsed = parseChallenges(value);
  return typeof parsed === "string" ? undefined : parsed.find((c) => c.scheme.toLowerCase() === "bearer");
}

/**
 * What RFC 6750 §3 advises against in the Bearer challenge refusing a credential: "If the
 * request lacks any authentication information (e.g., the client was unaware that
 * authentication is necessary or attempted using an unsupported authentication method), the
 * resource server SHOULD NOT include an error code or other error information" (`expected`
 * "none"), and a token that failed authentication SHOULD get the `error` attribute, for a token
 * never issued `invalid_token` (§3.1: "expired, revoked, malformed, or invalid for other
 * reasons"). Undefined when it is as advised, or when there is no readable Bearer challenge
 * (its presence and syntax are judged on their own).
 */
export function bearerErrorProblem(
  expected: "none" | "invalid_token",
  wwwAuthenticate: string | undefined,
): string | undefined {
  const ch = bearerChallenge(wwwAuthenticate);
  if (ch === undefined) return undefined;
  const error = ch.params.find((p) => p.name.toLowerCase() === "error")?.value;
  if (expected === "none")
    return error === undefined
      ? undefined
      : `the challenge refusing a request with no usable credentials carries error=${quote(error)} (RFC 6750 §3: SHOULD NOT include an error code)`;
  return error === "invalid_token"
    ? undefined
    : `the challenge refusing a token never issued carries ${error === undefined ? "no error attribute" : `error=${quote(error)}`}, not error="invalid_token" (RFC 6750 §3, §3.1)`;
}
