import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import type { CheckResult } from "../../src/engine/check.js";
import { renderHtml } from "../../src/report/html.js";
import { buildResults, type CatalogEntry, type Results } from "../../src/report/results.js";

/** A fresh key pair as JWKs: the private one (for --key) and a JWK Set of the public one (for --jwks). */
export async function keyPair(
  alg: "ES256" | "EdDSA" | "PS256",
  kid?: string,
): Promise<{ privateJwk: JWK; jwks: { keys: JWK[] } }> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const extra = kid !== undefined ? { kid } : {};
  return {
    privateJwk: { ...(await exportJWK(privateKey)), ...extra },
    jwks: { keys: [{ ...(await exportJWK(publicKey)), ...extra }] },
  };
}

export const SAMPLE_PROFILE = `name: sample
options:
  allowInsecureHttp: true
suites:
  bench:
    baseUrl: https://target.example/
    token: \${SAMPLE_TOKEN}
`;

/** Results of `n` requirements, every tenth MUST violated (so the run exits 1), as a run would build them. */
export function syntheticResults(n: number, profileText = SAMPLE_PROFILE): Results {
  const catalog: CatalogEntry[] = [];
  const checks: CheckResult[] = [];
  for (let i = 0; i < n; i++) {
    const id = `BENCH-REQ-${i}`;
    const level = i % 5 === 1 ? "SHOULD" : "MUST";
    catalog.push({ id, suite: "bench", level, text: `requirement ${i}`, source: "bench §1" });
    const violated = i % 10 === 0;
    checks.push({
      check: `bench.c${i}`,
      suite: "bench",
      title: `check ${i}`,
      section: "§1",
      requirements: { [id]: violated ? "violated" : "met" },
      findings: violated
        ? [
            {
              requirements: [id],
              outcome: "violated",
              message: "not met",
              expected: "200",
              actual: "500",
              exchanges: [],
            },
          ]
        : [],
      exchanges: [],
      notes: [],
      durationMs: 1,
    });
  }
  return buildResults({
    meta: {
      id: "synthetic-run",
      harness: { name: "idconform", version: "0.1.0" },
      profile: {
        name: "sample",
        file: "/somewhere/profile.yaml",
        sha256: createHash("sha256").update(profileText).digest("hex"),
      },
      suites: [{ name: "bench", title: "bench", document: "bench", target: "https://target.example/" }],
      seed: 1,
      strict: false,
      grep: [],
      startedAt: "2026-11-25T06:00:00.000Z",
      durationMs: 1000,
      notCertifiable: [],
      interrupted: false,
    },
    catalog,
    covered: new Set(catalog.map((c) => c.id)),
    checks,
    knownFailures: [],
  });
}

/** A run directory (results.json, report.html) and the profile file beside it. */
export function writeRunDir(
  dir: string,
  results: Results,
  profileText = SAMPLE_PROFILE,
): { run: string; profile: string } {
  const run = join(dir, "run");
  mkdirSync(run, { recursive: true });
  writeFileSync(join(run, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(run, "report.html"), renderHtml(results));
  const profile = join(dir, "profile.yaml");
  writeFileSync(profile, profileText);
  return { run, profile };
}

export interface EntityServerOptions {
  /** Keys published in the statement's jwks claim. */
  readonly jwks: { keys: JWK[] };
  /** What to serve instead of the good statement (a test's misbehaving entity). */
  readonly content?: (
    entityId: string,
    sign: (claims: Record<string, unknown>, header?: Record<string, unknown>) => Promise<string>,
    jwks: { keys: JWK[] },
  ) => Promise<{ body: string; type?: string }>;
}

/**
 * An OpenID Federation entity on 127.0.0.1 serving its Entity Configuration at
 * /.well-known/openid-federation: self-signed by a federation key of its own jwks, which
 * also lists the bundle-verifying keys given.
 */
export async function startEntity(
  opts: EntityServerOptions,
): Promise<{ entityId: string; close: () => Promise<void> }> {
  const fed = await generateKeyPair("ES256", { extractable: true });
  const fedPublic = { ...(await exportJWK(fed.publicKey)), kid: "fed-1" };
  const jwks = { keys: [fedPublic, ...opts.jwks.keys] };
  const sign = (claims: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", kid: "fed-1", typ: "entity-statement+jwt", ...header })
      .sign(fed.privateKey);
  let entityId = "";
  const server = createServer((req, res) => {
    if (req.url !== "/.well-known/openid-federation") return void res.writeHead(404).end();
    const now = Math.floor(Date.now() / 1000);
    const made: Promise<{ body: string; type?: string }> = opts.content
      ? opts.content(entityId, sign, jwks)
      : sign({ iss: entityId, sub: entityId, iat: now, exp: now + 3600, jwks }).then((body) => ({ body }));
    made.then(
      ({ body, type }) =>
        res.writeHead(200, { "content-type": type ?? "application/entity-statement+jwt" }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  entityId = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    entityId,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
