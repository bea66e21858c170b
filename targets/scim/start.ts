import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import type { RunningTarget } from "../../src/engine/target.js";
import { serveApp } from "../../src/http/serve.js";
import { createScimApp, SCIM_BASE_PATH } from "./app.js";
import { faultSet } from "./faults.js";

/** The client id the Application registered for the Identity Service (the demo profile's). */
export const CLIENT_ID = "idconform-identity-service";

export interface StartScimOptions {
  readonly faults: readonly string[];
  readonly port?: number;
  /**
   * The Identity Service's key to trust instead of generating one. A private JWK is also
   * handed back in `env`; with a public one, `env` has no IDC_DEMO_SCIM_CLIENT_KEY.
   */
  readonly clientJwk?: JWK;
  readonly tls?: { key: string; cert: string };
  /** The rate limiter's clock, for tests (default `Date.now`). */
  readonly clock?: () => number;
  /**
   * For tests of the suite's scheduling: another per-token limit (requests a second), and
   * a gateway-style penalty: after a token goes over, every request of the client is
   * refused with 429 for `penaltySeconds`.
   */
  readonly rateLimit?: { readonly perSecond?: number; readonly penaltySeconds?: number };
}

// Stryker disable next-line all: start plumbing for a caller that brings its own key (clientJwk); no run of the suite does, it uses the key the target generates
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k"];

/** The ES256 key pair of the Identity Service: the one given, or a fresh one. */
async function clientKeys(given: JWK | undefined): Promise<{ publicJwk: JWK; privateJwk: JWK | undefined }> {
  // Stryker disable next-line all: start plumbing for a caller that brings its own key (clientJwk); no run of the suite does
  if (given !== undefined) {
    const publicJwk = Object.fromEntries(
      Object.entries(given).filter(([k]) => !PRIVATE_MEMBERS.includes(k)),
    ) as JWK;
    // Stryker disable next-line all: start plumbing for a caller that brings its own key (clientJwk); no run of the suite does
    return { publicJwk, privateJwk: typeof given.d === "string" ? given : undefined };
  }
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const pub = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(pub);
  return {
    // Stryker disable next-line StringLiteral: equivalent: the public JWK is imported with an explicit ES256 (importJWK's alg argument) and published nowhere
    publicJwk: { ...pub, kid, alg: "ES256" },
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: "ES256" },
  };
}

/**
 * Starts the SCIM reference target (specs/002 area C): the Application's OAuth
 * authorization server and SCIM service provider on loopback, with the named faults.
 * `env` holds what profiles/demo/scim.yaml reads.
 */
export async function startScimTarget(opts: StartScimOptions): Promise<RunningTarget> {
  const faults = faultSet(opts.faults);
  const { publicJwk, privateJwk } = await clientKeys(opts.clientJwk);
  const key = await importJWK(publicJwk, "ES256");
  // Stryker disable next-line StringLiteral: equivalent: set to the server's URL before the first request can arrive
  let origin = "";
  const app = createScimApp({
    faults,
    origin: () => origin,
    client: { clientId: CLIENT_ID, key, kid: publicJwk.kid },
    // Stryker disable next-line ObjectLiteral: test plumbing: a frozen rate-limiter clock for unit tests; the suite runs on Date.now
    ...(opts.clock ? { clock: opts.clock } : {}),
    // Stryker disable next-line ObjectLiteral: test plumbing: the suite's runs use the default limit
    ...(opts.rateLimit ? { rateLimit: opts.rateLimit } : {}),
  });
  // Stryker disable all: server plumbing: the listening port and TLS of `idconform target`; the suite's checks reach the target at whatever URL it listens on
  const server = await serveApp(app, {
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.tls ? { tls: opts.tls } : {}),
  });
  // Stryker restore all
  origin = server.url;
  return {
    url: server.url,
    // Stryker disable next-line ArrowFunction: server plumbing: closing the listener after the run; no check runs after it
    close: () => server.close(),
    env: {
      IDC_DEMO_SCIM_URL: `${origin}${SCIM_BASE_PATH}`,
      IDC_DEMO_SCIM_ISSUER: origin,
      IDC_DEMO_SCIM_CLIENT_ID: CLIENT_ID,
      ...(privateJwk ? { IDC_DEMO_SCIM_CLIENT_KEY: JSON.stringify(privateJwk) } : {}),
      IDC_DEMO_SCIM_PROBE: `${origin}/probe/users/{id}/access`,
    },
  };
}
