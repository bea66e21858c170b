import { existsSync, readFileSync, statSync } from "node:fs";
import {
  calculateJwkThumbprint,
  decodeJwt,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  type CryptoKey,
  type JWK,
} from "jose";
import { HarnessError } from "../engine/errors.js";
import type { RecordingClient } from "../http/client.js";

/**
 * Keys of an evidence bundle: the certifier's private signing key (a JWK file or `${ENV}`), and
 * the public keys a verifier trusts (a JWK Set file or https URL, or the `jwks` of an OpenID
 * Federation Entity Configuration). Nothing here ever prints a key's private members.
 */

/** The signature algorithms a bundle may carry, each tied to one key type. */
export const BUNDLE_ALGS = ["ES256", "EdDSA", "PS256"] as const;
export type BundleAlg = (typeof BUNDLE_ALGS)[number];

export interface SigningKey {
  readonly alg: BundleAlg;
  readonly kid: string;
  readonly key: CryptoKey;
}

/** What a verifier trusts: public JWKs and where they came from (printed beside the verdict). */
export interface TrustedKeys {
  readonly keys: readonly JWK[];
  readonly source: string;
}

const KEY_FILE_CAP = 64 * 1024;
const JWKS_CAP = 1024 * 1024;
const MAX_KEYS = 100;
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];
const ENV_REF = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A JWK's own `alg`, when it has one, agrees with what its type signs (Ed25519 is EdDSA's fully specified name). */
export function algAgrees(jwk: JWK, alg: string): boolean {
  return jwk.alg === undefined || jwk.alg === alg || (alg === "EdDSA" && jwk.alg === "Ed25519");
}

/** The algorithm a key type implies: EC P-256 signs ES256, OKP Ed25519 EdDSA, RSA (2048 bits or more) PS256. */
export function algFor(jwk: JWK): BundleAlg | string {
  if (jwk.kty === "EC") return jwk.crv === "P-256" ? "ES256" : `an EC key on ${String(jwk.crv)} (only P-256)`;
  if (jwk.kty === "OKP")
    return jwk.crv === "Ed25519" ? "EdDSA" : `an OKP key on ${String(jwk.crv)} (only Ed25519)`;
  if (jwk.kty === "RSA") {
    const bits = typeof jwk.n === "string" ? Buffer.from(jwk.n, "base64url").length * 8 : 0;
    return bits >= 2048 ? "PS256" : `an RSA key of ${bits} bits (2048 or more)`;
  }
  return `key type ${JSON.stringify(jwk.kty)}`;
}

/**
 * Reads the certifier's private JWK from a file, or from the environment variable `${NAME}`
 * names. A symmetric key, a public key or an unsupported curve is refused by name; the error
 * never quotes the key (JSON.parse's message would).
 */
export async function loadSigningKey(arg: string, env: NodeJS.ProcessEnv = process.env): Promise<SigningKey> {
  const ref = ENV_REF.exec(arg);
  let text: string;
  let where: string;
  if (ref) {
    where = `environment variable ${ref[1]}`;
    const v = env[ref[1] ?? ""];
    if (v === undefined || v === "") throw new HarnessError("IDC_USAGE", `--key: ${where} is not set`);
    text = v;
  } else {
    where = arg;
    if (!existsSync(arg) || !statSync(arg).isFile())
      throw new HarnessError("IDC_USAGE", `--key: no such file: ${arg}`);
    if (statSync(arg).size > KEY_FILE_CAP)
      throw new HarnessError(
        "IDC_USAGE",
        `--key: ${arg} is larger than ${KEY_FILE_CAP} bytes; expected one JWK`,
      );
    text = readFileSync(arg, "utf8");
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new HarnessError("IDC_USAGE", `--key: ${where} is not JSON; expected a private JWK`);
  }
  if (isObject(doc) && Array.isArray(doc.keys)) {
    if (doc.keys.length !== 1)
      throw new HarnessError(
        "IDC_USAGE",
        `--key: ${where} is a JWK Set of ${doc.keys.length} keys; give one private JWK`,
      );
    doc = doc.keys[0];
  }
  if (!isObject(doc) || typeof doc.kty !== "string")
    throw new HarnessError("IDC_USAGE", `--key: ${where} is not a JWK (no "kty")`);
  const jwk = doc as JWK;
  if (jwk.kty === "oct")
    throw new HarnessError(
      "IDC_USAGE",
      `--key: ${where} is a symmetric key (kty "oct"): a bundle is verified by others with a public key; give an EC P-256, Ed25519 or RSA private JWK`,
    );
  if (typeof jwk.d !== "string")
    throw new HarnessError(
      "IDC_USAGE",
      `--key: ${where} is a public key (no "d"); signing needs the private JWK`,
    );
  const alg = algFor(jwk);
  if (!(BUNDLE_ALGS as readonly string[]).includes(alg))
    throw new HarnessError("IDC_USAGE", `--key: ${where} is ${alg}; supported: ES256, EdDSA, PS256`);
  if (!algAgrees(jwk, alg))
    throw new HarnessError(
      "IDC_USAGE",
      `--key: ${where} says alg ${JSON.stringify(jwk.alg)}, its key type signs ${alg}`,
    );
  let key: CryptoKey;
  try {
    key = (await importJWK(jwk, alg)) as CryptoKey;
  } catch {
    throw new HarnessError("IDC_USAGE", `--key: ${where} is not a usable ${alg} private key`);
  }
  const kid =
    typeof jwk.kid === "string" && jwk.kid !== "" ? jwk.kid : await calculateJwkThumbprint(publicPart(jwk));
  return { alg: alg as BundleAlg, kid, key };
}

/** A JWK without its private members. */
export function publicPart(jwk: JWK): JWK {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(jwk)) if (!PRIVATE_MEMBERS.includes(k)) out[k] = v;
  return out as JWK;
}

function keysOf(doc: unknown, source: string, bareKey = false): TrustedKeys {
  // For --jwks, one bare public JWK is read as a set of one; a statement's jwks claim must be a set.
  if (bareKey && isObject(doc) && typeof doc.kty === "string" && !("keys" in doc)) doc = { keys: [doc] };
  if (!isObject(doc) || !Array.isArray(doc.keys))
    throw new HarnessError("IDC_USAGE", `${source}: not a JWK Set (no "keys" array)`);
  if (doc.keys.length > MAX_KEYS)
    throw new HarnessError("IDC_USAGE", `${source}: ${doc.keys.length} keys, more than ${MAX_KEYS}`);
  const keys = doc.keys.filter((k): k is JWK => isObject(k) && typeof k.kty === "string" && k.kty !== "oct");
  return { keys: keys.map(publicPart), source };
}

/** Network options of key look-ups: plain http only when asked for (tests, a local trial). */
export interface FetchOptions {
  readonly allowInsecureHttp?: boolean;
  readonly timeoutMs?: number;
}

/** The recording client (undici), loaded only when a key is fetched: `verify --jwks <file>` spares it. */
async function client(opts: FetchOptions): Promise<RecordingClient> {
  const { DEFAULT_CLIENT_OPTIONS, RecordingClient } = await import("../http/client.js");
  return new RecordingClient({
    ...DEFAULT_CLIENT_OPTIONS,
    allowInsecureHttp: opts.allowInsecureHttp ?? false,
    requestTimeoutMs: opts.timeoutMs ?? 10_000,
    maxResponseBytes: JWKS_CAP,
  });
}

/** `--jwks`: a JWK Set from a file, or from an https URL (bounded in size and time). */
export async function loadJwks(arg: string, opts: FetchOptions = {}): Promise<TrustedKeys> {
  if (/^https?:\/\//i.test(arg)) {
    const res = await (
      await client(opts)
    ).get(arg, {
      headers: { accept: "application/jwk-set+json, application/json" },
    });
    if (res.status !== 200)
      throw new HarnessError("IDC_HTTP_FAILED", `--jwks ${arg}: answered ${res.status}, expected 200`);
    if (res.json === undefined) throw new HarnessError("IDC_HTTP_FAILED", `--jwks ${arg}: not JSON`);
    return keysOf(res.json, arg, true);
  }
  if (!existsSync(arg) || !statSync(arg).isFile())
    throw new HarnessError("IDC_USAGE", `--jwks: no such file: ${arg}`);
  if (statSync(arg).size > JWKS_CAP)
    throw new HarnessError("IDC_USAGE", `--jwks: ${arg} is larger than ${JWKS_CAP} bytes`);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(arg, "utf8"));
  } catch {
    throw new HarnessError("IDC_USAGE", `--jwks: ${arg} is not JSON`);
  }
  return keysOf(doc, arg, true);
}

/** A value a remote statement sent, quoted within bounds. */
const show = (v: unknown): string => (JSON.stringify(v) ?? "undefined").slice(0, 200);

const STATEMENT_ALGS = [
  "ES256",
  "ES384",
  "ES512",
  "PS256",
  "PS384",
  "PS512",
  "RS256",
  "RS384",
  "RS512",
  "EdDSA",
];

/**
 * `--entity`: the Entity Configuration at `<entity id>/.well-known/openid-federation`
 * (OpenID Federation 1.0 §9), an Entity Statement (§3) served as
 * `application/entity-statement+jwt`: `typ` entity-statement+jwt, a `kid`, `iss` = `sub` = the
 * entity id, `iat` and `exp`, signed by a key of its own `jwks` claim. Those keys verify the
 * bundle. The statement is trusted on its own (no trust chain is resolved to an anchor): the
 * operator names the entity it trusts.
 */
export async function loadEntityKeys(entityId: string, opts: FetchOptions = {}): Promise<TrustedKeys> {
  let id: URL;
  try {
    id = new URL(entityId);
  } catch {
    throw new HarnessError("IDC_USAGE", `--entity: "${entityId}" is not a URL (an entity identifier)`);
  }
  if (id.protocol !== "https:" && id.protocol !== "http:")
    throw new HarnessError("IDC_USAGE", `--entity: "${entityId}" is not an https URL`);
  const url = `${entityId.replace(/\/+$/, "")}/.well-known/openid-federation`;
  const res = await (
    await client(opts)
  ).get(url, { headers: { accept: "application/entity-statement+jwt" } });
  const where = `entity configuration ${url}`;
  const bad = (why: string): never => {
    throw new HarnessError("IDC_HTTP_FAILED", `${where}: ${why}`);
  };
  if (res.status !== 200) bad(`answered ${res.status}, expected 200`);
  const ct = (res.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (ct !== "application/entity-statement+jwt")
    bad(`content type ${show(ct)}, expected application/entity-statement+jwt`);
  const jwt = res.text.trim();
  let header: ReturnType<typeof decodeProtectedHeader>;
  let claims: ReturnType<typeof decodeJwt>;
  try {
    header = decodeProtectedHeader(jwt);
    claims = decodeJwt(jwt);
  } catch {
    return bad("not a signed JWT");
  }
  if (header.typ !== "entity-statement+jwt") bad(`typ ${show(header.typ)}, expected entity-statement+jwt`);
  if (typeof header.alg !== "string" || !STATEMENT_ALGS.includes(header.alg))
    bad(`alg ${show(header.alg)} is not an accepted signature algorithm`);
  if (typeof header.kid !== "string") bad("no kid in the header");
  // The statement names itself exactly; the identifier typed on the command line may carry a trailing slash.
  const self = [entityId, entityId.replace(/\/+$/, "")];
  const iss = typeof claims.iss === "string" && self.includes(claims.iss) ? claims.iss : undefined;
  if (iss === undefined || claims.sub !== iss)
    bad(
      `iss and sub must both be the entity id ${entityId}; got iss ${show(claims.iss)}, sub ${show(claims.sub)}`,
    );
  let trusted: TrustedKeys;
  try {
    trusted = keysOf(claims.jwks, `${where} (jwks claim)`);
  } catch (e) {
    return bad(e instanceof Error ? e.message.replace(`${where} `, "") : "no jwks");
  }
  const own = trusted.keys.filter((k) => k.kid === header.kid);
  if (own.length !== 1)
    bad(`the statement's kid ${show(header.kid)} names ${own.length} keys of its own jwks, expected 1`);
  try {
    const key = await importJWK(own[0]!, header.alg);
    await jwtVerify(jwt, key, {
      algorithms: [header.alg!],
      typ: "entity-statement+jwt",
      issuer: iss!,
      subject: iss!,
      requiredClaims: ["iat", "exp"],
    });
  } catch (e) {
    bad(`not validly self-signed: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { keys: trusted.keys, source: `the jwks of ${entityId}'s Entity Configuration` };
}
