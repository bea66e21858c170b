import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { JWK } from "jose";
import { HarnessError } from "../engine/errors.js";
import { locateMocks } from "../engine/discovery.js";
import { IDENTIFIER_SETS, type IdentifierSetName, type VciIdentifiers } from "../protocols/vci.js";
import { mockUsage as usage } from "./mock-usage.js";
import { err } from "./output.js";

/**
 * `idconform mock op --sign` and `idconform mock wallet --proof`: one token signed as the run's
 * mock signs them, for replaying an exchange of a report by hand (its placeholders name these).
 */

export interface MintOptions {
  readonly port?: string | undefined;
  readonly sign?: string | undefined;
  readonly proof?: boolean | undefined;
  readonly profile?: string | undefined;
  readonly aud?: string | undefined;
  readonly nonce?: string | undefined;
  readonly alg?: string | undefined;
}

export async function mint(role: string, v: MintOptions): Promise<number> {
  if (v.sign !== undefined && v.proof) throw usage("give one of --sign (mock op) and --proof (mock wallet)");
  if (v.port !== undefined) throw usage("--port: minting a token serves nothing");
  const [want, what] =
    v.sign !== undefined ? ["op", "--sign mints a Command Token"] : ["wallet", "--proof mints a key proof"];
  if (role !== want) throw usage(`${what}: it goes with mock ${want}, not mock ${role}`);
  if (v.profile === undefined)
    throw usage(`--profile is required: the key and what the run fills in come from the profile`);
  if (v.sign !== undefined) {
    const stray = (["aud", "nonce", "alg"] as const).find((k) => v[k] !== undefined);
    if (stray) throw usage(`--${stray} goes with --proof (mock wallet), not with --sign`);
    return mintCommandToken(v.sign, v.profile);
  }
  return mintProof(v.profile, v);
}

/** A suite's section of the profile at `path`, loaded as `validate` loads it (variables resolved). */
async function profileSection(path: string, suite: string, why: string): Promise<unknown> {
  const { loadSuitesForProfile } = await import("../engine/discovery.js");
  const { loadProfile } = await import("../engine/profile.js");
  const p = loadProfile(path, await loadSuitesForProfile(path));
  for (const w of p.warnings) err(`warning: ${w}`);
  const section = p.suites[suite];
  if (!section) throw new HarnessError("IDC_USAGE", `${path} has no suites.${suite} section: ${why}`);
  return section;
}

/**
 * A helper module of a mock, found like the mock itself (`src` never imports `mocks`), so the
 * command signs with the very code the run's mock signs with.
 */
async function mockModule<T>(role: string, file: string): Promise<T> {
  const l = locateMocks().find((m) => m.name === role);
  if (!l) throw new HarnessError("IDC_INTERNAL", `mock ${role} not found`);
  return (await import(pathToFileURL(join(l.dir, file)).href)) as T;
}

/** What `mock op --sign` uses of mocks/op/command-token.ts. */
interface CommandTokenModule {
  commandClaims(
    base: { iss: string; aud: string; clientId: string; tenant: string },
    command: string,
    extra?: Record<string, unknown>,
  ): Record<string, unknown>;
  signCommandToken(privateJwk: JWK, claims: Record<string, unknown>): Promise<string>;
}

/** The members of `suites.commands` the command reads (suites/commands/profile.ts). */
interface CommandsSection {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly tenant?: string;
  readonly op: { readonly issuer?: string; readonly publicUrl?: string; readonly signingKey?: string };
}

/** Longest claims file read: a Command Token's claims are a few hundred bytes. */
const MAX_CLAIMS_FILE = 256 * 1024;

function readClaims(file: string): Record<string, unknown> {
  if (!existsSync(file) || !statSync(file).isFile()) throw usage(`--sign: claims file not found: ${file}`);
  if (statSync(file).size > MAX_CLAIMS_FILE)
    throw usage(`--sign: ${file} is larger than ${MAX_CLAIMS_FILE} bytes; a claims file is a JSON object`);
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(file, "utf8")) as unknown;
  } catch {
    // JSON.parse's message quotes the text; the file is the user's own, but keep it out anyway.
    throw usage(`--sign: ${file} is not JSON; a claims file is a JSON object of claims`);
  }
  if (v === null || typeof v !== "object" || Array.isArray(v))
    throw usage(`--sign: ${file} holds JSON but not an object; a claims file is a JSON object of claims`);
  return v as Record<string, unknown>;
}

/**
 * `idconform mock op --sign`: a Command Token (specs/002 area A Command Token) signed with the
 * profile's OP key exactly as the commands suite signs them (header typ command+jwt, the key's
 * alg and kid). The claims file's claims are kept; what it leaves out is filled as the run
 * fills it: iss, aud, client_id and tenant from the profile, iat now, exp 60 s later, a fresh jti.
 */
async function mintCommandToken(file: string, path: string): Promise<number> {
  const claimsIn = readClaims(file);
  const s = (await profileSection(
    path,
    "commands",
    "the Command Token's key, aud and client_id come from it",
  )) as CommandsSection;
  if (s.op.signingKey === undefined)
    throw new HarnessError(
      "IDC_USAGE",
      `${path} sets no suites.commands.op.signingKey, so the run generates its OP key per run and no token the RP trusts can be minted: set suites.commands.op.signingKey (a private JWK, from an environment variable)`,
    );
  const command = claimsIn.command;
  if (typeof command !== "string" || command === "")
    throw usage(`--sign: ${file} names no command: give "command" (activate, metadata, ...)`);
  // The run's issuer is the profile's, else the mock OP's public URL, else where it listens (per run).
  const iss = s.op.issuer ?? s.op.publicUrl?.replace(/\/$/, "");
  if (iss === undefined && !("iss" in claimsIn))
    throw new HarnessError(
      "IDC_USAGE",
      `${path} sets neither suites.commands.op.issuer nor op.publicUrl and ${file} gives no iss: the run's issuer is where its mock OP listens, made per run; set suites.commands.op.issuer (or give iss in the claims file)`,
    );
  const extra: Record<string, unknown> = { ...claimsIn };
  // The run's tenant is made per run when the profile sets none: then the token has no tenant.
  const noTenant = s.tenant === undefined && !("tenant" in claimsIn);
  if (noTenant) extra.tenant = undefined;
  const { commandClaims, signCommandToken } = await mockModule<CommandTokenModule>("op", "command-token.ts");
  const claims = commandClaims(
    { iss: iss ?? "", aud: s.baseUrl, clientId: s.clientId, tenant: s.tenant ?? "" },
    command,
    extra,
  );
  const key = JSON.parse(s.op.signingKey) as JWK;
  const token = await signCommandToken(key, claims);
  process.stdout.write(`${token}\n`);
  const exp = typeof claims.exp === "number" ? ` exp ${new Date(claims.exp * 1000).toISOString()}` : "";
  err(
    `Command Token "${command}" for ${String(claims.aud)}, signed ${key.alg ?? "ES256"}${key.kid ? ` (kid ${key.kid})` : ""} with suites.commands.op.signingKey,${exp}`,
  );
  if (noTenant)
    err(
      "no tenant: neither the claims file nor suites.commands.tenant gives one (the run makes one per run); Tenant Commands need one",
    );
  return 0;
}

/** What `mock wallet --proof` uses of mocks/wallet/keys.ts and proof.ts. */
interface HolderKeyLike {
  readonly alg: string;
  readonly publicJwk: JWK;
  readonly thumbprint: string;
}
interface WalletKeysModule {
  holderKey(alg: "ES256" | "EdDSA"): Promise<HolderKeyLike>;
}
interface WalletProofModule {
  jwtProof(o: {
    key: HolderKeyLike;
    ids: VciIdentifiers;
    aud: string;
    nonce?: string;
    iss?: string;
  }): Promise<string>;
}

/** The members of `suites.vci` the command reads (suites/vci/profile.ts). */
interface VciSection {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly identifiers: IdentifierSetName;
}

/**
 * `idconform mock wallet --proof`: a `jwt` key proof (specs/000 Credential Request: proofs;
 * public-spec-facts §1, F.1) made as the run's wallet makes them: typ of the profile's identifier
 * set, the holder key's public JWK in the header, aud the Credential Issuer, iss the client_id,
 * iat now, nonce when given. The run's wallet generates its holder key per run; so does this.
 */
async function mintProof(path: string, v: MintOptions): Promise<number> {
  const alg = v.alg ?? "ES256";
  if (alg !== "ES256" && alg !== "EdDSA")
    throw usage(`--alg: the wallet signs proofs with ES256 or EdDSA, got "${alg}"`);
  const s = (await profileSection(
    path,
    "vci",
    "the proof's typ (identifiers), iss (clientId) and aud (baseUrl) come from it",
  )) as VciSection;
  const aud = v.aud ?? s.baseUrl;
  if (!URL.canParse(aud))
    throw usage(`--aud: expected the Credential Issuer identifier (a URL), got "${aud}"`);
  const { holderKey } = await mockModule<WalletKeysModule>("wallet", "keys.ts");
  const { jwtProof } = await mockModule<WalletProofModule>("wallet", "proof.ts");
  const key = await holderKey(alg);
  const proof = await jwtProof({
    key,
    ids: IDENTIFIER_SETS[s.identifiers],
    aud,
    iss: s.clientId,
    ...(v.nonce !== undefined ? { nonce: v.nonce } : {}),
  });
  process.stdout.write(`${proof}\n`);
  err(
    `${IDENTIFIER_SETS[s.identifiers].proofTyp} for ${aud}: the run's wallet makes its holder key per run, and so did this command (its private key is not kept); public JWK, also in the proof's jwk header (thumbprint ${key.thumbprint}):`,
  );
  err(JSON.stringify(key.publicJwk));
  if (v.nonce === undefined)
    err(
      "no --nonce: the proof has no nonce claim; an issuer with a nonce endpoint wants a fresh c_nonce in it",
    );
  return 0;
}
