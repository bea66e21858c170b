import { compactVerify, importJWK, type JWK } from "jose";
import { quote } from "../../src/engine/quote.js";
import { parseJsonBounded } from "../../src/http/json-bounds.js";
import { fromB64url } from "./b64.js";
import { WalletError } from "./errors.js";
import { committedDigests, readDisclosure, type Disclosure } from "./sd-jwt.js";

export { sameKey } from "./thumbprint.js";
export type { Disclosure } from "./sd-jwt.js";

/** The formats the Wallet can read (specs/000 configuration `format`). */
export type CredentialFormat = "dc+sd-jwt" | "jwt_vc_json";

/** An issued credential as the Wallet read it; `problems` lists what is wrong with its shape. */
export interface ParsedCredential {
  format: CredentialFormat;
  /** The issuer JWT's protected header. */
  header: Record<string, unknown>;
  /** The issuer JWT's claims. */
  payload: Record<string, unknown>;
  /** `payload.cnf.jwk`, when it is there: the key the credential is bound to. */
  cnfJwk?: JWK;
  /** SD-JWT disclosures (none for jwt_vc_json); `digest` = b64url(sha256(disclosure)). */
  disclosures: Disclosure[];
  /** Whether every disclosure's digest is committed to by the payload (always true for jwt_vc_json). */
  undisclosedDigestsOk: boolean;
  problems: string[];
  /** The issuer-signed compact JWS, which `verifyIssuerSignature` checks. */
  issuerJwt: string;
}

/** A credential is a few KiB; a hostile issuer gets no further than this. */
export const MAX_CREDENTIAL = 256 * 1024;
export const MAX_DISCLOSURES = 200;

const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function jsonSegment(seg: string, what: string): Record<string, unknown> {
  const bytes = fromB64url(seg);
  if (!bytes || bytes.length === 0) throw new WalletError(`issuer JWT ${what} is not base64url`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new WalletError(`issuer JWT ${what} is not JSON`);
  }
  // Within the depth bound, so no later reading of a claim can recurse past the stack.
  const p = parseJsonBounded(text);
  if (!p.ok)
    throw new WalletError(`issuer JWT ${what} is ${p.error.startsWith("not read") ? p.error : "not JSON"}`);
  const v = p.value;
  if (!isRecord(v)) throw new WalletError(`issuer JWT ${what} is not a JSON object`);
  return v;
}

/** Decodes a compact JWS without trusting it; throws when it is not one at all. */
function decodeJws(
  jws: string,
  problems: string[],
): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const parts = jws.split(".");
  if (parts.length !== 3) throw new WalletError(`issuer JWT has ${parts.length} segments, not 3`);
  const header = jsonSegment(parts[0] ?? "", "header");
  const payload = jsonSegment(parts[1] ?? "", "payload");
  if (header.alg === "none" || typeof header.alg !== "string")
    problems.push("issuer JWT is not signed (alg none or missing)");
  if (!parts[2]) problems.push("issuer JWT has an empty signature");
  return { header, payload };
}

/** Splits `<issuer-jwt>~<disclosure>~...~[<kb-jwt>]` (SD-JWT §4), noting a missing trailing `~`. */
function splitSdJwt(s: string, problems: string[]): { issuerJwt: string; encoded: string[] } {
  const parts = s.split("~");
  const issuerJwt = parts.shift() ?? "";
  if (parts.length === 0) {
    problems.push("SD-JWT has no ~ separator (missing trailing ~)");
    return { issuerJwt, encoded: [] };
  }
  const last = parts[parts.length - 1] ?? "";
  if (last === "" || last.split(".").length === 3) parts.pop();
  else problems.push("SD-JWT does not end with ~ (missing trailing ~)");
  if (parts.length > MAX_DISCLOSURES) throw new WalletError(`SD-JWT has over ${MAX_DISCLOSURES} disclosures`);
  return { issuerJwt, encoded: parts };
}

function readSdJwt(s: string, problems: string[]): Omit<ParsedCredential, "format" | "problems"> {
  const { issuerJwt, encoded } = splitSdJwt(s, problems);
  const { header, payload } = decodeJws(issuerJwt, problems);
  const disclosures: Disclosure[] = [];
  const seen = new Set<string>();
  encoded.forEach((e, i) => {
    if (e === "") return void problems.push(`disclosure ${i} is empty`);
    const d = readDisclosure(e, i);
    if (typeof d === "string") return void problems.push(d);
    if (seen.has(d.digest)) problems.push(`disclosure ${i} repeats an earlier one`);
    seen.add(d.digest);
    disclosures.push(d);
  });
  if (typeof payload.vct !== "string" || payload.vct === "") problems.push("payload has no vct string");
  const sdAlg = payload._sd_alg ?? "sha-256";
  let undisclosedDigestsOk = false;
  if (sdAlg !== "sha-256") problems.push(`_sd_alg is ${quote(sdAlg, 80)}, not "sha-256"`);
  else {
    const committed = committedDigests(
      payload,
      disclosures.map((d) => d.value),
    );
    const missing = disclosures.filter((d) => !committed.has(d.digest));
    undisclosedDigestsOk = missing.length === 0;
    if (!undisclosedDigestsOk)
      problems.push(
        `disclosures not committed to by the payload: ${missing.map((d) => d.name || "(array element)").join(", ")}`,
      );
  }
  return { header, payload, disclosures, undisclosedDigestsOk, issuerJwt };
}

function readJwtVc(s: string, problems: string[]): Omit<ParsedCredential, "format" | "problems"> {
  const { header, payload } = decodeJws(s, problems);
  if (!isRecord(payload.vc)) problems.push("payload has no vc object");
  return { header, payload, disclosures: [], undisclosedDigestsOk: true, issuerJwt: s };
}

/**
 * Reads a credential an issuer handed back (specs/000 Rules 7: never trusted): an SD-JWT VC
 * (`dc+sd-jwt`) or a JWT VC (`jwt_vc_json`). Shape problems are collected for the checks to
 * judge; a value that is not a credential at all (not a string, not a JWT, too large, an
 * unknown format) throws a WalletError.
 */
export function parseCredential(format: string, credential: unknown): ParsedCredential {
  if (format !== "dc+sd-jwt" && format !== "jwt_vc_json")
    throw new WalletError(`unknown credential format ${quote(format, 100)}`);
  if (typeof credential !== "string")
    throw new WalletError(
      `credential is a ${credential === null ? "null" : typeof credential}, not a string`,
    );
  if (credential.length > MAX_CREDENTIAL)
    throw new WalletError(`credential is over ${MAX_CREDENTIAL} characters`);
  const problems: string[] = [];
  const body = format === "dc+sd-jwt" ? readSdJwt(credential, problems) : readJwtVc(credential, problems);
  const cnf = body.payload.cnf;
  const parsed: ParsedCredential = { format, ...body, problems };
  if (isRecord(cnf) && cnf.jwk !== undefined) {
    if (isRecord(cnf.jwk)) parsed.cnfJwk = cnf.jwk as JWK;
    else problems.push("cnf.jwk is not an object");
  }
  return parsed;
}

/**
 * Verifies the issuer JWT's signature with the issuer's JWKS: the key named by the header
 * `kid`, else the only key. Asymmetric algorithms only. Any failure, including a hostile key
 * set, is `false`: this never throws.
 */
export async function verifyIssuerSignature(c: ParsedCredential, jwks: { keys: JWK[] }): Promise<boolean> {
  try {
    const alg = c.header.alg;
    if (typeof alg !== "string" || alg === "none" || alg.startsWith("HS")) return false;
    const keys = (Array.isArray(jwks?.keys) ? jwks.keys : []).slice(0, 100).filter(isRecord);
    const kid = c.header.kid;
    const key =
      (typeof kid === "string" ? keys.find((k) => k.kid === kid) : undefined) ??
      (keys.length === 1 ? keys[0] : undefined);
    if (!key || key.kty === "oct" || (key.alg !== undefined && key.alg !== alg)) return false;
    const pub: JWK = { ...key };
    for (const m of PRIVATE_MEMBERS) delete (pub as Record<string, unknown>)[m];
    await compactVerify(c.issuerJwt, await importJWK(pub, alg), { algorithms: [alg] });
    return true;
  } catch {
    return false;
  }
}
