import { parseJsonBounded } from "../../src/http/json-bounds.js";
import { PRE_AUTHORIZED_GRANT, type VciIdentifiers } from "../../src/protocols/vci.js";

/** A Credential Offer invocation as the Wallet read it (specs/000 Wallet Credential Offer Endpoint). */
export interface OfferInvocation {
  kind: "value" | "reference";
  /** The decoded `credential_offer` (by value). */
  offer?: unknown;
  /** The `credential_offer_uri` (by reference). */
  uri?: string;
  problems: string[];
}

/** An invocation is a link or a QR code; past this it is not one. */
const MAX_INVOCATION = 64 * 1024;
const OFFER = "credential_offer";
const OFFER_URI = "credential_offer_uri";

/** The raw query of an invocation, whatever its scheme; undefined when the scheme is neither ours nor http(s). */
function rawQuery(invocation: string, ids: VciIdentifiers): string | undefined {
  const noFragment = invocation.split("#", 1)[0] ?? "";
  const q = noFragment.indexOf("?");
  const query = q < 0 ? "" : noFragment.slice(q + 1);
  if (invocation.startsWith(ids.offerScheme)) return query;
  try {
    const u = new URL(invocation);
    return u.protocol === "https:" || u.protocol === "http:" ? query : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads an invocation URI: the custom offer scheme of `ids`, or any http(s) URL (a Wallet
 * Credential Offer Endpoint) whose query carries exactly one of `credential_offer` (URL-encoded
 * JSON) and `credential_offer_uri` (an https URL). Never throws: everything wrong becomes a
 * problem, since the invocation comes from the issuer (Rules 7).
 */
export function parseOfferInvocation(invocation: string, ids: VciIdentifiers): OfferInvocation {
  const problems: string[] = [];
  if (typeof invocation !== "string" || invocation.length > MAX_INVOCATION)
    return {
      kind: "value",
      problems: [`invocation is not a string of at most ${MAX_INVOCATION} characters`],
    };
  const query = rawQuery(invocation, ids);
  if (query === undefined)
    problems.push(`invocation uses neither ${ids.offerScheme} nor an http(s) Wallet endpoint`);
  const pairs = (query ?? "").split("&").filter((p) => p !== "");
  const raw = new Map<string, string[]>();
  for (const p of pairs) {
    const eq = p.indexOf("=");
    const name = safeDecode(eq < 0 ? p : p.slice(0, eq));
    (raw.get(name) ?? raw.set(name, []).get(name)!).push(eq < 0 ? "" : p.slice(eq + 1));
  }
  const extra = [...raw.keys()].filter((k) => k !== OFFER && k !== OFFER_URI);
  if (extra.length > 0)
    problems.push(`extra query parameters: ${extra.map((e) => e.slice(0, 60)).join(", ")}`);
  for (const [k, v] of raw)
    if (v.length > 1 && (k === OFFER || k === OFFER_URI)) problems.push(`${k} appears ${v.length} times`);
  const byValue = raw.get(OFFER)?.[0];
  const byRef = raw.get(OFFER_URI)?.[0];
  if (byValue !== undefined && byRef !== undefined)
    problems.push(`both ${OFFER} and ${OFFER_URI} are present`);
  if (byValue === undefined && byRef === undefined)
    problems.push(`neither ${OFFER} nor ${OFFER_URI} is present`);
  if (byValue === undefined && byRef !== undefined) {
    const uri = safeDecode(byRef);
    if (!isHttpsUrl(uri)) problems.push(`${OFFER_URI} is not an https URL`);
    return { kind: "reference", uri, problems };
  }
  const result: OfferInvocation = { kind: "value", problems };
  if (byValue === undefined) return result;
  // RFC 3986 §3.4: a query may hold these unescaped; JSON's braces and quotes must be escaped.
  if (/[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]|%(?![0-9A-Fa-f]{2})/.test(byValue))
    problems.push(`${OFFER} is not URL-encoded`);
  const p = parseJsonBounded(safeDecode(byValue));
  if (p.ok) result.offer = p.value;
  else problems.push(`${OFFER} is ${p.error.startsWith("not read") ? p.error : "not JSON"}`);
  return result;
}

/** Form decoding (`+` is a space) that keeps a malformed escape as it is rather than throwing. */
function safeDecode(s: string): string {
  const spaced = s.replace(/\+/g, " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

function isHttpsUrl(s: string): boolean {
  try {
    return new URL(s).protocol === "https:";
  } catch {
    return false;
  }
}

/** The members of a Credential Offer the Wallet acts on, with every problem of their shape. */
export interface OfferShape {
  credentialIssuer?: string;
  configurationIds: string[];
  preAuthorizedCode?: string;
  txCode?: { input_mode?: unknown; length?: unknown; description?: unknown } | undefined;
  /** A `tx_code` object, even empty, means the Token Request needs a Transaction Code. */
  txCodeRequired: boolean;
  issuerState?: string;
  authorizationServer?: string;
  problems: string[];
}

const TX_DESCRIPTION_MAX = 300;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads a Credential Offer object (specs/000 Resources: Credential Offer, Grant parameters),
 * noting every member that breaks its rules. Unknown members are ignored (Rules 10).
 */
export function readOffer(offer: unknown): OfferShape {
  const shape: OfferShape = { configurationIds: [], txCodeRequired: false, problems: [] };
  const problems = shape.problems;
  if (!isRecord(offer)) {
    problems.push("offer is not a JSON object");
    return shape;
  }
  if (typeof offer.credential_issuer === "string") shape.credentialIssuer = offer.credential_issuer;
  else problems.push("credential_issuer is not a string");
  readConfigurationIds(offer.credential_configuration_ids, shape);
  if (offer.grants === undefined) return shape;
  if (!isRecord(offer.grants)) {
    problems.push("grants is not an object");
    return shape;
  }
  const pre = offer.grants[PRE_AUTHORIZED_GRANT];
  if (pre !== undefined) readPreAuthorized(pre, shape);
  const code = offer.grants.authorization_code;
  if (code !== undefined) readAuthorizationCode(code, shape);
  return shape;
}

function readConfigurationIds(ids: unknown, shape: OfferShape): void {
  if (!Array.isArray(ids) || ids.length === 0) {
    shape.problems.push("credential_configuration_ids is not a non-empty array");
    return;
  }
  const strings = ids.filter((i): i is string => typeof i === "string");
  if (strings.length !== ids.length) shape.problems.push("credential_configuration_ids holds a non-string");
  if (new Set(strings).size !== strings.length)
    shape.problems.push("credential_configuration_ids has duplicates");
  shape.configurationIds = [...new Set(strings)];
}

function readAuthorizationServer(grant: Record<string, unknown>, name: string, shape: OfferShape): void {
  const as = grant.authorization_server;
  if (as === undefined) return;
  if (typeof as !== "string") shape.problems.push(`${name}.authorization_server is not a string`);
  else shape.authorizationServer ??= as;
}

function readPreAuthorized(grant: unknown, shape: OfferShape): void {
  const name = "pre-authorized grant";
  if (!isRecord(grant)) return void shape.problems.push(`${name} is not an object`);
  const code = grant["pre-authorized_code"];
  if (typeof code === "string") shape.preAuthorizedCode = code;
  else shape.problems.push(`${name} pre-authorized_code is not a string`);
  readAuthorizationServer(grant, name, shape);
  const tx = grant.tx_code;
  if (tx === undefined) return;
  shape.txCodeRequired = true;
  if (!isRecord(tx)) return void shape.problems.push("tx_code is not an object");
  shape.txCode = tx;
  if (tx.input_mode !== undefined && tx.input_mode !== "numeric" && tx.input_mode !== "text")
    shape.problems.push("tx_code.input_mode is neither numeric nor text");
  if (tx.length !== undefined && !Number.isInteger(tx.length))
    shape.problems.push("tx_code.length is not an integer");
  if (tx.description !== undefined) {
    if (typeof tx.description !== "string") shape.problems.push("tx_code.description is not a string");
    else if ([...tx.description].length > TX_DESCRIPTION_MAX)
      shape.problems.push(`tx_code.description is over ${TX_DESCRIPTION_MAX} characters`);
  }
}

function readAuthorizationCode(grant: unknown, shape: OfferShape): void {
  const name = "authorization_code grant";
  if (!isRecord(grant)) return void shape.problems.push(`${name} is not an object`);
  if (grant.issuer_state !== undefined) {
    if (typeof grant.issuer_state === "string") shape.issuerState = grant.issuer_state;
    else shape.problems.push(`${name} issuer_state is not a string`);
  }
  readAuthorizationServer(grant, name, shape);
}
