import { defineObserver, type ObservedExchange } from "../../src/engine/observer.js";
import { firstKind, type FindingKind, type KindedProblem } from "../../src/engine/finding-kind.js";
import { quote } from "../../src/engine/quote.js";
import { prefix } from "../../src/http/client.js";
import type { VciProfile } from "./profile.js";

/** Tags the Wallet puts on its requests, so that observers know which endpoint answered. */
export const TAG = {
  token: "token-endpoint",
  nonce: "nonce-endpoint",
  credential: "credential-endpoint",
} as const;

const noStore = (ex: ObservedExchange): boolean =>
  (ex.header("cache-control") ?? "").split(",").some((d) => /^\s*no-store\s*$/i.test(d));
const typeIs = (ex: ObservedExchange, t: string): boolean =>
  new RegExp(`^${t.replace("/", "\\/")}\\s*(;|$)`, "i").test(ex.header("content-type") ?? "");
const errorOf = (ex: ObservedExchange): unknown =>
  ex.json !== null && typeof ex.json === "object" ? (ex.json as { error?: unknown }).error : undefined;
type Problem = KindedProblem;
/** The kind a reader must see first among the problems (there is at least one). */
const worstOf = (problems: readonly Problem[]): FindingKind =>
  firstKind(problems.map((p) => p.kind)) ?? "wrong-value";
/** A header that lacks a required value: absent, or present with other values. */
const headerKind = (ex: ObservedExchange, name: string): FindingKind =>
  ex.header(name) === undefined ? "missing" : "wrong-value";
const ALLOWED_DESCRIPTION = /^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/;
const ERROR_CODE = /^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/;

/** The first characters of `text` outside `allowed` (one character's class), as code points and positions. */
function unsafeShown(text: string, allowed: RegExp = /^[\x20-\x21\x23-\x5B\x5D-\x7E]$/): string {
  const bad: string[] = [];
  for (const [i, ch] of [...text].entries()) {
    if (allowed.test(ch)) continue;
    bad.push(`U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")} at ${i}`);
    if (bad.length === 3) break;
  }
  return bad.join(", ");
}
/** An absent error_description, or a string of the characters RFC 6749 §5.2 allows. */
const descriptionOk = (ex: ObservedExchange): boolean => {
  const d =
    ex.json !== null && typeof ex.json === "object"
      ? (ex.json as { error_description?: unknown }).error_description
      : undefined;
  return d === undefined || (typeof d === "string" && ALLOWED_DESCRIPTION.test(d));
};

/**
 * specs/000 rules about every response of an endpoint (every token response is no-store,
 * every token and credential error has its format, every nonce response is no-store):
 * judged on every request any check sends there, not on one probe.
 */
export const vciObservers = [
  defineObserver<VciProfile>({
    id: "vci.observe-token-no-store",
    title: "every successful token response carries Cache-Control: no-store",
    requirement: "VCI-TOKEN-NO-STORE",
    applies: (ex) => ex.tags.includes(TAG.token) && ex.status >= 200 && ex.status < 300,
    judge: (ex) =>
      noStore(ex)
        ? undefined
        : {
            message: `the ${ex.status} token response to ${ex.label ?? "a token request"} is cacheable`,
            expected: "Cache-Control: no-store",
            actual: ex.header("cache-control") ?? "(no Cache-Control)",
            kind: headerKind(ex, "cache-control"),
          },
  }),
  defineObserver<VciProfile>({
    id: "vci.observe-token-errors",
    title:
      "every token error is 400 application/json with an error string, an error_description (if any) of the allowed characters and Cache-Control: no-store",
    requirement: "VCI-TOKEN-ERROR-FORMAT",
    applies: (ex) => ex.tags.includes(TAG.token) && ex.status >= 400 && ex.status < 500,
    judge: (ex) => {
      const problems: Problem[] = [
        ...(ex.status !== 400 ? [{ kind: "wrong-status" as const, text: `status ${ex.status}` }] : []),
        ...(typeIs(ex, "application/json")
          ? []
          : [
              {
                kind: headerKind(ex, "content-type"),
                text: `Content-Type ${ex.header("content-type") ?? "(none)"}`,
              },
            ]),
        // RFC 6749 §5.2: error = 1*NQSCHAR, a code of one character or more.
        ...(typeof errorOf(ex) === "string" && errorOf(ex) !== ""
          ? []
          : [
              {
                kind: errorOf(ex) === undefined ? ("missing" as const) : ("malformed" as const),
                text: `error ${quote(errorOf(ex) ?? null)}`,
              },
            ]),
        ...(noStore(ex)
          ? []
          : [
              {
                kind: headerKind(ex, "cache-control"),
                text: `Cache-Control ${ex.header("cache-control") ?? "(none)"}`,
              },
            ]),
        // RFC 6749 §5.2: error_description MUST NOT include characters outside %x20-21 / %x23-5B / %x5D-7E.
        ...(descriptionOk(ex)
          ? []
          : [
              {
                kind: "malformed" as const,
                text: "error_description is no string of %x20-21 / %x23-5B / %x5D-7E",
              },
            ]),
      ];
      return problems.length === 0
        ? undefined
        : {
            message: `the token error answering ${ex.label ?? "a token request"} is not in the token error format`,
            expected:
              "400 application/json with error, error_description of allowed characters, Cache-Control: no-store",
            actual: problems.map((p) => p.text).join("; "),
            kind: worstOf(problems),
          };
    },
  }),
  defineObserver<VciProfile>({
    id: "vci.observe-nonce-no-store",
    title: "every nonce response carries Cache-Control: no-store",
    requirement: "VCI-NONCE-NO-STORE",
    applies: (ex) => ex.tags.includes(TAG.nonce) && ex.status >= 200 && ex.status < 300,
    judge: (ex) =>
      noStore(ex)
        ? undefined
        : {
            message: `the ${ex.status} nonce response to ${ex.label ?? "a nonce request"} is cacheable`,
            expected: "Cache-Control: no-store",
            actual: ex.header("cache-control") ?? "(no Cache-Control)",
            kind: headerKind(ex, "cache-control"),
          },
  }),
  defineObserver<VciProfile>({
    id: "vci.observe-credential-errors",
    title:
      "every credential error is unencrypted and its error and error_description use the allowed characters; a 400 is application/json with an error string",
    requirement: "VCI-CRED-ERROR-FORMAT",
    // A 401 or 403 carries its error in WWW-Authenticate and leaves the body open (RFC 6750 §3):
    // VCI-CRED-CHALLENGE-SYNTAX judges those. Every other error, 5xx included, is judged here.
    applies: (ex) =>
      ex.tags.includes(TAG.credential) && ex.status >= 400 && ex.status !== 401 && ex.status !== 403,
    judge: (ex) => {
      const problems = credentialErrorProblems(ex);
      return problems.length === 0
        ? undefined
        : {
            kind: worstOf(problems),
            message: `the ${ex.status} credential error answering ${ex.label ?? "a credential request"} is malformed`,
            expected:
              ex.status === 400
                ? 'a 400 application/json body {"error": string, "error_description"?: printable ASCII without " and \\}'
                : 'an unencrypted body whose error and error_description, where present, are printable ASCII without " and \\',
            actual: problems.map((p) => p.text).join("; "),
          };
    },
  }),
  defineObserver<VciProfile>({
    id: "vci.observe-credential-challenges",
    title:
      "every WWW-Authenticate the credential endpoint sends is well formed (RFC 9110 §11.6.1; a Bearer challenge of name=value attributes, none twice, RFC 6750 §3)",
    requirement: "VCI-CRED-CHALLENGE-SYNTAX",
    applies: (ex) => ex.tags.includes(TAG.credential) && ex.header("www-authenticate") !== undefined,
    judge: (ex) => {
      const value = ex.header("www-authenticate") ?? "";
      const problem = challengeProblem(value);
      return problem === undefined
        ? undefined
        : {
            message: `the WWW-Authenticate of the ${ex.status} answering ${ex.label ?? "a credential request"} is malformed: ${problem}`,
            expected:
              'Bearer, or Bearer followed by name="value" attributes, each at most once (RFC 6750 §3), for example Bearer error="invalid_token", error_description="the access token expired"',
            actual: `WWW-Authenticate: ${prefix(value, 200)}`,
          };
    },
  }),
];

/** What is wrong with a credential error's body (public §8.3.1; RFC 6749 §5.2 character sets), each with its kind. */
export function credentialErrorProblems(ex: ObservedExchange): Problem[] {
  const problems: Problem[] = [];
  const add = (kind: FindingKind, text: string): void => void problems.push({ kind, text });
  if (typeIs(ex, "application/jwt"))
    return [{ kind: "wrong-value", text: "the error is application/jwt (errors are never encrypted)" }];
  const body =
    ex.json !== null && typeof ex.json === "object" && !Array.isArray(ex.json)
      ? (ex.json as Record<string, unknown>)
      : undefined;
  if (ex.status === 400) {
    if (!typeIs(ex, "application/json"))
      add(
        headerKind(ex, "content-type"),
        `Content-Type is ${ex.header("content-type") ?? "absent"}, not application/json`,
      );
    if (typeof body?.error !== "string" || body.error === "")
      add(
        body?.error === undefined ? "missing" : "malformed",
        `error is ${quote(body?.error ?? null)}, not a non-empty string`,
      );
  } else if (body === undefined) {
    // Beyond 400 the document names no body: one that is no JSON object (a proxy's page) says nothing of the OAuth members.
    return [];
  }
  // RFC 6749 §5.2: neither error nor error_description has characters outside %x20-21 / %x23-5B / %x5D-7E.
  const e = body?.error;
  if (typeof e === "string" && e !== "" && !ERROR_CODE.test(e))
    add("malformed", `error ${quote(prefix(e, 80))} has characters outside %x20-21 / %x23-5B / %x5D-7E`);
  if (e !== undefined && typeof e !== "string" && ex.status !== 400)
    add("malformed", "error is not a string");
  const d = body?.error_description;
  if (d !== undefined && (typeof d !== "string" || !ALLOWED_DESCRIPTION.test(d)))
    add(
      "malformed",
      typeof d === "string"
        ? `error_description has characters outside %x20-21 / %x23-5B / %x5D-7E (${unsafeShown(d)})`
        : "error_description is not a string",
    );
  return problems;
}

/** RFC 9110 §5.6.2 token and §11.2 token68. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*/;
/** RFC 9110 §5.6.4 quoted-string (qdtext or quoted-pair, obs-text included). */
const QUOTED = /^"((?:[\t \x21\x23-\x5B\x5D-\x7E\x80-\xFF]|\\[\t \x21-\x7E\x80-\xFF])*)"/;

interface Challenge {
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
