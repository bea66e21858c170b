import type { RunningTarget } from "../../src/engine/target.js";
import { serveApp } from "../../src/http/serve.js";
import { IDENTIFIER_SETS, type IdentifierSetName } from "../../src/protocols/vci.js";
import { createVciApp } from "./app.js";
import { ISSUER_PATH, type VciContext } from "./context.js";
import { faultSet } from "./faults.js";
import { generateIssuerKeys } from "./keys.js";
import { HOOK_PATH } from "./offer/hook-route.js";
import { randomId } from "./random.js";
import { makeCertificate } from "../shared/tls.js";

/** The demo End-User's user name (the password is random per start). */
export const DEMO_USER = "erika";

export interface StartVciOptions {
  readonly faults: readonly string[];
  readonly port?: number;
  /** Which identifier set to speak (specs/000 `std`, the default, or the published `openid`). */
  readonly identifiers?: IdentifierSetName;
}

/**
 * Starts the credential-issuance reference target (specs/000): a Credential Issuer that is
 * its own Authorization Server, over HTTPS on 127.0.0.1 with a fresh self-signed
 * certificate, issuer identifier `https://127.0.0.1:<port>/issuer`, with the named faults.
 * `env` holds what profiles/demo/vci.yaml reads.
 */
export async function startVciTarget(opts: StartVciOptions): Promise<RunningTarget> {
  const faults = faultSet(opts.faults);
  const keys = await generateIssuerKeys();
  const certificate = await makeCertificate("vci");
  // Stryker disable next-line StringLiteral: equivalent: set to the server URL below before the server can answer any request
  let origin = "";
  const ctx: VciContext = {
    faults,
    ids: IDENTIFIER_SETS[opts.identifiers ?? "std"],
    // Stryker disable next-line ArrowFunction: read only under the fault "as-issuer-mismatch" (metadata/routes.ts); the issuer below reads origin itself
    origin: () => origin,
    issuer: () => `${origin}${ISSUER_PATH}`,
    keys,
  };
  const login = { username: DEMO_USER, password: randomId(18) };
  const hookToken = randomId();
  let server: Awaited<ReturnType<typeof serveApp>>;
  // Stryker disable BlockStatement: server plumbing: the catch removes the temporary certificate when listening fails, which no check can cause (emptying the try block stops the server from starting, which every check would see)
  try {
    server = await serveApp(createVciApp({ ctx, login, hookToken }), {
      tls: { key: certificate.key, cert: certificate.cert },
      // Stryker disable next-line all: server plumbing: a fixed port is for running the target by hand; the checks reach the same server on whatever port it listens
      ...(opts.port !== undefined ? { port: opts.port } : {}),
    });
  } catch (err) {
    await certificate.remove();
    throw err;
  }
  // Stryker restore BlockStatement
  origin = server.url;
  const running = server;
  return {
    url: server.url,
    // Stryker disable next-line BlockStatement: server plumbing: stopping the server and removing its certificate file after a run is not protocol
    close: async () => {
      await running.close();
      await certificate.remove();
    },
    env: {
      IDC_DEMO_VCI_ISSUER: ctx.issuer(),
      IDC_DEMO_VCI_CA_FILE: certificate.caFile,
      IDC_DEMO_VCI_HOOK_URL: `${origin}${HOOK_PATH}`,
      IDC_DEMO_VCI_HOOK_TOKEN: hookToken,
      IDC_DEMO_VCI_USER: login.username,
      IDC_DEMO_VCI_PASSWORD: login.password,
      IDC_DEMO_VCI_METADATA_JWKS: JSON.stringify({ keys: [keys.metadata.publicJwk] }),
    },
  };
}
