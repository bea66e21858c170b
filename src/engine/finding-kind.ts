/**
 * How bad a violation is, in the few kinds a reader scans for. A check says the kind where it
 * knows it (`Details.kind`); otherwise it is read from what the finding says was expected and
 * what came (`inferKind`). The kind never changes a verdict: the requirement's level does that.
 */
export type FindingKind =
  "accepted" | "wrong-status" | "wrong-code" | "missing" | "malformed" | "wrong-value";

/** Reading order: what the target accepted although it must refuse it comes first. */
export const FINDING_KINDS: readonly FindingKind[] = [
  "accepted",
  "wrong-status",
  "wrong-code",
  "missing",
  "malformed",
  "wrong-value",
];

/** One line per kind, for the report's legend and the console. */
export const FINDING_KIND_TEXT: Record<FindingKind, string> = {
  accepted:
    "accepted what it must refuse (a forged, expired or replayed token, a bad proof, a revoked subject)",
  "wrong-status": "answered, but not with the status the document says",
  "wrong-code": "refused with the right status, but not with the error code the document says",
  missing: "a required member, header, message or answer is absent",
  malformed: "present, but not in the syntax the document requires",
  "wrong-value": "well-formed, with a value or state the document does not allow",
};

/** One thing wrong with what a target sent, with the kind of violation it is. */
export interface KindedProblem {
  readonly kind: FindingKind;
  readonly text: string;
}

/** Of several kinds, the one a reader must see first (an acceptance before anything else). */
export function firstKind(kinds: readonly FindingKind[]): FindingKind | undefined {
  return [...kinds].sort((a, b) => kindRank(a) - kindRank(b))[0];
}

/** A kind a security review reads first. */
export function isSecurityKind(kind: FindingKind | undefined): boolean {
  return kind === "accepted";
}

/** Sort key of a kind (unknown last). */
export function kindRank(kind: FindingKind | undefined): number {
  const i = kind === undefined ? -1 : FINDING_KINDS.indexOf(kind);
  return i < 0 ? FINDING_KINDS.length : i;
}

const STATUS = /\b[1-5]\d\d\b/g;
/** A class of statuses named in an expectation ("4xx"). */
const CLASS = /\b([1-5])xx\b/gi;
const LEADING_STATUS = /^\s*\(?(?:HTTP\/\S+\s+)?(?:status\s+)?([1-5]\d\d)\b/i;
/** "answered 500 server_error", "refused with 400": the status a target gave, said in words. */
const SAID_STATUS = /\b(?:answered|refused with|responded|returned)\s+(?:with\s+)?([1-5]\d\d)\b/i;
/** "expected 201 with an id, got 409": a step of a sequence answered with another status. */
const EXPECTED_GOT = /\bexpected ([1-5]\d\d)\b[^;]{0,60}?,? got ([1-5]\d\d)\b/i;
/**
 * The expectation is a refusal: a status that turns a request down (not 404 or 405: an unknown
 * resource is no acceptance), or words that say so.
 */
const REFUSAL =
  /\b(?:400|401|403|409|412|422|429|4xx)\b|\brefus|\breject|\bden(?:y|ied|ial)\b|\bno access\b|\bcannot act\b|\bno session\b|\bnot accepted\b|\bunauthori[sz]ed\b/i;
const ERROR_CODE =
  /\berror(?: code)?s? (?:member )?["'`]?[a-z][a-z0-9]*_[a-z0-9_]+|["']error["']\s*:|\bscimType\b|\berror code\b|\binvalid_[a-z_]+\b|\b[1-5]\d\d,? (?:with )?[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/i;
const ABSENT =
  /^\(?(?:(?:absent|missing|none|nothing|no value|not present|not sent|undefined|null)\)?\.?$|nothing (?:arrived|came|was sent)\b|(?:no|without) [\w -]*\b(?:member|header|claim|field|parameter|attribute|value|body|event|message|answer|notification|token|location|link|cookie)s?\b|no [\w$.-]+(?:$|[:;,)]))/i;
/** "WWW-Authenticate null", "schemas null, status null", "userName: null": a named value absent. */
const NAMED_ABSENT =
  /(?:^|[\s,;(])[A-Za-z_$][\w$.-]*:? (?:null|absent|undefined|\(absent\)|\(none\))(?=$|[,;)\s])/i;
const ABSENT_MESSAGE = /\b(?:is|are) (?:missing|absent)\b|\blacks?\b|\bgave no answer\b|\bno answer\b/i;
const MALFORMED =
  /\bnot (?:valid )?JSON\b|\bnot an? (?:JSON|object|array|string|number|integer|boolean|URL|URI|JWT|JWS|JWE|date|timestamp)\b|\bmalformed\b|\bdoes not parse\b|\bunparsable\b|\bcannot be parsed\b|\bnot base64|\binvalid JSON\b|\bnot a compact\b|\bnot (?:a )?(?:well-formed|valid (?:URL|URI|date))\b/i;

const is2xx = (n: number): boolean => n >= 200 && n < 300;

/**
 * The kind of a violation, read from its texts and the status of the response it cites:
 * a refusal expected and a 2xx received is `accepted`; statuses (or classes, "4xx") named and
 * another received is `wrong-status`; an absent value is `missing`; a value that does not parse
 * is `malformed`; an error code named is `wrong-code`; anything else `wrong-value`. Only the
 * start of `actual` is read for syntax words: the rest is the target's own text.
 */
export function inferKind(
  d: {
    readonly expected?: string | undefined;
    readonly actual?: string | undefined;
    readonly message?: string | undefined;
  },
  status?: number,
): FindingKind {
  // Numbers inside URLs and addresses (127.0.0.1, a port, a path) are no statuses.
  const expected = (d.expected ?? "").replace(
    /\b[a-z][a-z0-9+.-]*:\/\/\S+|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?/gi,
    " ",
  );
  const actual = (d.actual ?? "").trim();
  const head = actual.slice(0, 80);
  const message = d.message ?? "";
  const step = EXPECTED_GOT.exec(actual);
  if (step && step[1] !== step[2]) {
    const [want, was] = [Number(step[1]), Number(step[2])];
    return is2xx(was) && REFUSAL.test(String(want)) ? "accepted" : "wrong-status";
  }
  const said = LEADING_STATUS.exec(actual)?.[1] ?? SAID_STATUS.exec(head)?.[1];
  const got = said !== undefined ? Number(said) : undefined;
  const seen = got ?? status;
  const named = new Set((expected.match(STATUS) ?? []).map(Number));
  const classes = new Set([...expected.matchAll(CLASS)].map((m) => Number(m[1])));
  const fits = (n: number): boolean => named.has(n) || classes.has(Math.floor(n / 100));
  const wants2xx = classes.has(2) || [...named].some(is2xx);
  if (seen !== undefined && is2xx(seen) && REFUSAL.test(expected) && !wants2xx) return "accepted";
  if (got !== undefined && (named.size > 0 || classes.size > 0) && !fits(got)) return "wrong-status";
  if (
    ABSENT.test(actual) ||
    NAMED_ABSENT.test(head) ||
    (actual === "" && d.actual !== undefined) ||
    ABSENT_MESSAGE.test(message)
  )
    return "missing";
  if (MALFORMED.test(head) || MALFORMED.test(message)) return "malformed";
  if (ERROR_CODE.test(expected)) return "wrong-code";
  return "wrong-value";
}
