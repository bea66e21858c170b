import { createHmac, createPublicKey, X509Certificate, type JsonWebKey } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CompactSign, exportJWK, generateKeyPair, importJWK, importPKCS8, type JWK } from "jose";
import { generate as selfSigned } from "selfsigned";

/**
 * The token attack family (design honesty rule 7): from one valid signed token, the forgeries
 * and near-misses a verifier must refuse. Every suite that has a target verify something the
 * harness signs (Command Tokens, client assertions, key proofs, SETs, federation statements)
 * takes its negative probes from here, so a new suite gets all of them.
 *
 * Variants that change a claim or a header member are re-signed with the real key, so that
 * the attacked property is the only difference; forgeries use an attacker key of the real
 * key's algorithm, so a verifier that pins the algorithm still has to look at the key.
 */
export type TokenAttackId =
  | "embedded-jwk"
  | "embedded-x5c"
  | "jku"
  | "alg-none"
  | "hs256-public-key"
  | "unknown-kid"
  | "stranger-key"
  | "flipped-signature"
  | "expired"
  | "iat-future"
  | "nbf-future"
  | "wrong-aud"
  | "wrong-iss"
  | `missing-${string}`
  | `typ-${string}`;

export interface TokenAttack {
  readonly id: TokenAttackId;
  /** What was done to the token, for a finding ("signed by a key it carries in its header jwk"). */
  readonly title: string;
  readonly token: string;
}

/** A JWKS host a target may fetch from (a `jku` forgery points at it). */
export interface JkuHost {
  readonly url: string;
  publish(jwks: { keys: JWK[] }): void;
}

export interface TokenAttackOptions {
  /** A valid compact JWS the target accepts. */
  readonly token: string;
  /** The private JWK that signed it (with `alg`, or the token's header names it) and its `kid`. */
  readonly signingKey: JWK;
  /** Claims the document requires: one variant each without it, re-signed. */
  readonly requiredClaims?: readonly string[];
  /** Where the `jku` forgery points; without it there is no `jku` variant. */
  readonly jku?: JkuHost;
  /** The clock skew a verifier may allow, in seconds (default 300): time variants go well beyond it. */
  readonly skewSeconds?: number;
  /**
   * `typ` values to try instead of the real one (`undefined`: no typ). Default: none and "JWT"
   * (whichever differs from the real one; typ compares case-insensitively).
   */
  readonly typVariants?: readonly (string | undefined)[];
  /** Variants the caller does not want (the document allows that behaviour, or they are tested elsewhere). */
  readonly omit?: readonly string[];
  /** Only these variants (each still subject to `omit`). */
  readonly only?: readonly string[];
  /** Seconds since the epoch (tests fix it). */
  readonly now?: () => number;
}

type Header = Record<string, unknown> & { alg: string };

/** Splits a compact JWS into its decoded header and payload; throws on anything else. */
export function decodeCompact(token: string): {
  header: Header;
  payload: Record<string, unknown>;
  parts: string[];
} {
  const parts = token.split(".");
  if (parts.length !== 3 || token.length > 1_000_000) throw new Error("not a compact JWS");
  const json = (s: string): Record<string, unknown> => {
    const v = JSON.parse(Buffer.from(s, "base64url").toString("utf8")) as unknown;
    if (v === null || typeof v !== "object" || Array.isArray(v)) throw new Error("not a JSON object");
    return v as Record<string, unknown>;
  };
  const header = json(parts[0]!);
  if (typeof header.alg !== "string") throw new Error("the header has no alg");
  return { header: header as Header, payload: json(parts[1]!), parts };
}

const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString("base64url");

async function sign(header: Header, payload: Record<string, unknown>, key: JWK | CryptoKey): Promise<string> {
  const k = key instanceof CryptoKey ? key : await importJWK(key, header.alg);
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader(header)
    .sign(k);
}

/** Key generation parameters for an algorithm, so an attacker key looks like the real one. */
function genParams(
  alg: string,
  jwk: JWK,
): { alg: string; options: { extractable: true; crv?: string; modulusLength?: number } } {
  if (alg === "EdDSA" || alg === "Ed25519")
    return { alg, options: { extractable: true, crv: jwk.crv ?? "Ed25519" } };
  if (/^(RS|PS)\d+$/.test(alg)) {
    const bits = jwk.n ? Math.max(2048, Buffer.from(jwk.n, "base64url").length * 8) : 2048;
    return { alg, options: { extractable: true, modulusLength: bits } };
  }
  return { alg, options: { extractable: true } };
}

const attackerKeys = new Map<string, Promise<{ privateKey: CryptoKey; publicJwk: JWK }>>();

/** One attacker key pair per algorithm per process (RSA generation is slow). */
export function attackerKey(alg: string, like: JWK = {}): Promise<{ privateKey: CryptoKey; publicJwk: JWK }> {
  const key = `${alg}/${like.crv ?? ""}`;
  let p = attackerKeys.get(key);
  if (!p) {
    const g = genParams(alg, like);
    p = generateKeyPair(g.alg, g.options).then(async ({ privateKey, publicKey }) => ({
      privateKey,
      publicJwk: { ...(await exportJWK(publicKey)), alg, kid: "idconform-attacker", use: "sig" },
    }));
    attackerKeys.set(key, p);
  }
  return p;
}

/** A self-signed certificate and its key for the `x5c` forgery (RSA and EC keys; none for EdDSA). */
async function attackerCertificate(
  alg: string,
  like: JWK,
): Promise<{ key: CryptoKey; x5c: string } | undefined> {
  const ec = /^ES(256|384|512)$/.exec(alg);
  const rsa = /^(RS|PS)\d+$/.test(alg);
  if (!ec && !rsa) return undefined;
  const curve = ec
    ? ({ "256": "P-256", "384": "P-384", "512": "P-521" } as const)[ec[1] as "256" | "384" | "512"]
    : undefined;
  const pems = await selfSigned([{ name: "commonName", value: "idconform attacker" }], {
    algorithm: "sha256",
    keyType: ec ? "ec" : "rsa",
    ...(curve ? { curve } : {}),
    ...(rsa ? { keySize: like.n ? Math.max(2048, Buffer.from(like.n, "base64url").length * 8) : 2048 } : {}),
  });
  const der = new X509Certificate(pems.cert).raw.toString("base64");
  return { key: await importPKCS8(pems.private, alg), x5c: der };
}

/** The real key's public half as the PEM a confused verifier would use as an HMAC secret. */
function publicPem(jwk: JWK): string | undefined {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk;
  try {
    return createPublicKey({ key: pub as JsonWebKey, format: "jwk" })
      .export({ type: "spki", format: "pem" })
      .toString();
  } catch {
    return undefined;
  }
}

/** Every variant of the family that applies to `o.token`, in a stable order. */
export async function tokenAttacks(o: TokenAttackOptions): Promise<TokenAttack[]> {
  const { header, payload, parts } = decodeCompact(o.token);
  const alg = header.alg;
  const real = { ...o.signingKey, alg: o.signingKey.alg ?? alg };
  const now = o.now?.() ?? Math.floor(Date.now() / 1000);
  const skew = o.skewSeconds ?? 300;
  const far = Math.max(3600, skew * 10);
  const omit = new Set(o.omit ?? []);
  const only = o.only ? new Set(o.only) : undefined;
  const out: TokenAttack[] = [];
  const add = async (
    id: TokenAttackId,
    title: string,
    make: () => Promise<string | undefined>,
  ): Promise<void> => {
    if (omit.has(id) || (only !== undefined && !only.has(id))) return;
    const token = await make();
    if (token !== undefined) out.push({ id, title, token });
  };
  const resign = (h: Header, p: Record<string, unknown>): Promise<string> => sign(h, p, real);
  const attacker = await attackerKey(alg, real);

  await add("embedded-jwk", "signed by a stranger key that the token carries in its header jwk", async () => {
    const { kid: _kid, ...pub } = attacker.publicJwk;
    return sign({ ...header, jwk: pub }, payload, attacker.privateKey);
  });
  await add(
    "embedded-x5c",
    "signed by a stranger key whose self-signed certificate the token carries in x5c",
    async () => {
      const cert = await attackerCertificate(alg, real);
      return cert ? sign({ ...header, x5c: [cert.x5c] }, payload, cert.key) : undefined;
    },
  );
  if (o.jku) {
    const host = o.jku;
    // The stranger key is published under the real kid: only trusting the jku can make it verify.
    await add("jku", "signed by a stranger key published at a jku URL the token names", async () => {
      const kid =
        typeof header.kid === "string" ? header.kid : (attacker.publicJwk.kid ?? "idconform-attacker");
      host.publish({ keys: [{ ...attacker.publicJwk, kid }] });
      return sign({ ...header, jku: host.url, kid }, payload, attacker.privateKey);
    });
  }
  await add("alg-none", 'unsigned: header alg "none" and an empty signature', async () =>
    Promise.resolve(`${b64({ ...header, alg: "none" })}.${parts[1]}.`),
  );
  await add("hs256-public-key", "HS256, keyed with the real public key (algorithm confusion)", async () => {
    const pem = publicPem(real);
    if (pem === undefined) return undefined;
    const head = b64({ ...header, alg: "HS256" });
    const mac = createHmac("sha256", pem).update(`${head}.${parts[1]}`).digest("base64url");
    return `${head}.${parts[1]}.${mac}`;
  });
  await add("unknown-kid", "signed by a stranger key under a kid the verifier does not know", async () =>
    sign({ ...header, kid: "idconform-unknown-kid" }, payload, attacker.privateKey),
  );
  await add("stranger-key", "signed by a stranger key under the real kid", async () =>
    sign(header, payload, attacker.privateKey),
  );
  await add("flipped-signature", "the real signature with bytes flipped", async () => {
    const sig = Buffer.from(parts[2]!, "base64url");
    if (sig.length === 0) return undefined;
    sig[0] = sig[0]! ^ 0x01;
    sig[sig.length - 1] = sig[sig.length - 1]! ^ 0x80;
    return Promise.resolve(`${parts[0]}.${parts[1]}.${sig.toString("base64url")}`);
  });
  await add("expired", `expired ${far} s ago, well beyond any clock skew`, async () =>
    resign(header, {
      ...payload,
      iat: now - far * 2,
      exp: now - far,
      ...("nbf" in payload ? { nbf: now - far * 2 } : {}),
    }),
  );
  await add("iat-future", `issued ${far} s in the future`, async () =>
    resign(header, {
      ...payload,
      iat: now + far,
      ...(typeof payload.exp === "number" ? { exp: now + far * 2 } : {}),
    }),
  );
  await add("nbf-future", `not valid before ${far} s from now`, async () =>
    resign(header, {
      ...payload,
      nbf: now + far,
      ...(typeof payload.exp === "number" ? { exp: now + far * 2 } : {}),
    }),
  );
  if ("aud" in payload)
    await add("wrong-aud", "audience of another party", async () =>
      resign(header, {
        ...payload,
        aud: Array.isArray(payload.aud) ? ["https://other.invalid/"] : "https://other.invalid/",
      }),
    );
  if ("iss" in payload)
    await add("wrong-iss", "issued by another party", async () =>
      resign(header, { ...payload, iss: "https://other-issuer.invalid" }),
    );
  for (const claim of o.requiredClaims ?? []) {
    if (!(claim in payload)) continue;
    await add(`missing-${claim}`, `without the required claim ${claim}`, async () => {
      const { [claim]: _gone, ...rest } = payload;
      return resign(header, rest);
    });
  }
  const typ = typeof header.typ === "string" ? header.typ : undefined;
  // typ compares case-insensitively (RFC 7515 §4.1.9): a case variant is the same typ, not an attack.
  const typs =
    o.typVariants ?? ([undefined, "JWT"] as const).filter((t) => t?.toLowerCase() !== typ?.toLowerCase());
  for (const t of typs) {
    await add(`typ-${t ?? "absent"}`, t === undefined ? "without typ" : `typ "${t}"`, async () => {
      const { typ: _t, ...rest } = header;
      return resign((t === undefined ? rest : { ...rest, typ: t }) as Header, payload);
    });
  }
  return out;
}

/** Serves the attacker's JWKS on 127.0.0.1 for the `jku` forgery; close it after the check. */
export async function startJkuHost(): Promise<
  JkuHost & { close(): Promise<void>; readonly fetched: number }
> {
  let body = JSON.stringify({ keys: [] });
  let fetched = 0;
  const server: Server = createServer((_req, res) => {
    fetched++;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  return {
    url,
    publish: (jwks) => void (body = JSON.stringify(jwks)),
    get fetched() {
      return fetched;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One credential a resource server must refuse in place of a valid opaque Bearer token. */
/** The `error` attribute RFC 6750 §3 advises in a Bearer challenge: none, or invalid_token. */
export type ChallengeErrorAdvice = "none" | "invalid_token";

export interface BearerCredentialAttack {
  readonly id:
    | "absent"
    | "basic-scheme"
    | "empty-bearer"
    | "malformed-bearer"
    | "unknown-bearer"
    | "near-miss-changed"
    | "near-miss-prefix";
  /** For a finding ("an empty Bearer token"). */
  readonly title: string;
  /** The whole Authorization header value; `null`: no header at all. */
  readonly authorization: string | null;
  /**
   * RFC 6750 §3.1: the request itself is malformed (an empty or doubled Bearer value), so 400
   * invalid_request is a fitting refusal besides 401.
   */
  readonly malformed: boolean;
  /** Values derived from the real token that no output may show (register them as secrets). */
  readonly secrets: readonly string[];
  /**
   * The `error` attribute RFC 6750 §3 advises in the Bearer challenge refusing it: none for a
   * request that "lacks any authentication information" (no header, or an unsupported scheme),
   * `invalid_token` for a token that failed authentication; undefined where the text leaves it
   * open (an empty or malformed value: invalid_request or nothing).
   */
  readonly challengeError?: ChallengeErrorAdvice;
}

/**
 * The Bearer half of the family, for an opaque token the harness holds but cannot forge (a
 * stream management or poll token): no credential, the real token under another scheme, an empty
 * and a doubled Bearer value (a parser that takes the second word finds the real token), a token
 * never issued, and, for a token of 8 characters or more, two near misses of the real one (a
 * comparison of a prefix, or of all but the end). `unknown` is the never-issued token (random).
 */
export function bearerCredentialAttacks(token: string, unknown: string): BearerCredentialAttack[] {
  const out: BearerCredentialAttack[] = [
    {
      id: "absent",
      title: "no Authorization header",
      authorization: null,
      malformed: false,
      secrets: [],
      challengeError: "none",
    },
    {
      id: "basic-scheme",
      title: "the real token under the Basic scheme",
      authorization: `Basic ${token}`,
      // A well-formed header whose credentials fail: 401 (RFC 9110 §15.5.2), not a malformed request.
      malformed: false,
      secrets: [],
      challengeError: "none",
    },
    {
      id: "empty-bearer",
      title: "an empty Bearer token",
      // Two spaces: a redactor then sees an empty credential, not a secret "Bearer " it would hide
      // in every text of a check (HTTP trims the trailing white space either way).
      authorization: "Bearer  ",
      malformed: true,
      secrets: [],
    },
    {
      id: "malformed-bearer",
      title: "a malformed Bearer value (the real token twice)",
      authorization: `Bearer ${token} ${token}`,
      malformed: true,
      secrets: [],
    },
    {
      id: "unknown-bearer",
      title: "a Bearer token never issued",
      authorization: `Bearer ${unknown}`,
      malformed: false,
      secrets: [],
      challengeError: "invalid_token",
    },
  ];
  if (token.length >= 8) {
    const last = token.at(-1)!;
    const changed = `${token.slice(0, -1)}${last === "A" ? "B" : "A"}`;
    const prefix = token.slice(0, -1);
    out.push(
      {
        id: "near-miss-changed",
        title: "the real token with its last character changed",
        authorization: `Bearer ${changed}`,
        malformed: false,
        secrets: [changed],
        challengeError: "invalid_token",
      },
      {
        id: "near-miss-prefix",
        title: "the real token without its last character",
        authorization: `Bearer ${prefix}`,
        malformed: false,
        secrets: [prefix],
        challengeError: "invalid_token",
      },
    );
  }
  return out;
}
