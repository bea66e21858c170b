import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import type { RunningTarget } from "../../src/engine/target.js";
import { serveApp } from "../../src/http/serve.js";
import { createFederationApp } from "./app.js";
import type { FedContext } from "./context.js";
import { faultSet } from "./faults.js";
import { HOOK_PATH } from "./hook/change-hook.js";
import { json } from "./http/reply.js";
import { KeyRing } from "./keys.js";
import { LIMITS } from "./limits.js";
import { buildFederation } from "./model/fixture.js";
import { makeCertificate } from "../shared/tls.js";

export interface StartFederationOptions {
  readonly faults: readonly string[];
  readonly port?: number;
  /** Generated leaves under the open Intermediate, for scale runs (default 0). */
  readonly members?: number;
  /** Entity Identifiers of external Trust Anchors the collection accepts as trust_anchor. */
  readonly otherAnchors?: readonly string[];
}

/**
 * Starts the federation reference target (specs/001 with the base facts of public-spec-facts
 * §2): a Trust Anchor at `https://127.0.0.1:<port>/ta` with two Intermediates, leaves, a second
 * Trust Anchor and the change hook, over HTTPS with a fresh self-signed certificate, with the
 * named faults. `env` holds what profiles/demo/federation.yaml reads.
 */
export async function startFederationTarget(opts: StartFederationOptions): Promise<RunningTarget> {
  const faults = faultSet(opts.faults);
  const members = opts.members ?? 0;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,BlockStatement: test plumbing: the validation of the members start option (a scale-run setting; a suite run leaves it at 0)
  if (!Number.isInteger(members) || members < 0 || members > LIMITS.maxGeneratedMembers) {
    throw new Error(`members must be an integer from 0 to ${LIMITS.maxGeneratedMembers}`);
  }
  // Stryker disable next-line StringLiteral: test plumbing: only names the certificate's temporary directory
  const certificate = await makeCertificate("federation");
  const hookToken = randomBytes(32).toString("base64url");
  // The entities' identifiers hold the port, known once the server listens: until the
  // federation is built on it, the server answers 503 (nobody knows the port yet anyway).
  let inner: Hono | undefined;
  const shell = new Hono();
  // Stryker disable next-line ObjectLiteral,StringLiteral: test plumbing: answers only before the federation is built, when nobody knows the port yet
  shell.all("*", (c) => (inner ? inner.fetch(c.req.raw) : json({ error: "temporarily_unavailable" }, 503)));
  let server: Awaited<ReturnType<typeof serveApp>>;
  try {
    server = await serveApp(shell, {
      tls: { key: certificate.key, cert: certificate.cert },
      // Stryker disable next-line all: test plumbing: the port start option; suite runs take any free port
      ...(opts.port !== undefined ? { port: opts.port } : {}),
    });
  } catch (err) {
    await certificate.remove();
    throw err;
  }
  const running = server;
  // Stryker disable next-line BlockStatement: test plumbing: closing the server and removing the certificate after a run decides no verdict
  const close = async (): Promise<void> => {
    await running.close();
    await certificate.remove();
  };
  try {
    const origin = server.url;
    const now = (): number => Math.floor(Date.now() / 1000);
    const keys = new KeyRing(randomBytes(32));
    const { registry, ids } = await buildFederation({ origin, now: now(), keys, members });
    const ctx: FedContext = {
      faults,
      origin,
      ids,
      registry,
      keys,
      cursorKey: randomBytes(32),
      // Stryker disable next-line LogicalOperator,ArrayDeclaration: test plumbing: the otherAnchors start option (external Trust Anchors), which no suite run passes; the demo's other anchor is served by the target itself
      otherAnchors: new Set(opts.otherAnchors ?? []),
      now,
    };
    inner = createFederationApp(ctx, hookToken);
    const client = registry.get(ids.client);
    return {
      url: origin,
      close,
      env: {
        IDC_DEMO_FEDERATION_ENTITY: ids.anchor,
        IDC_DEMO_FEDERATION_CA_FILE: certificate.caFile,
        IDC_DEMO_FEDERATION_HOOK_URL: `${origin}${HOOK_PATH}`,
        IDC_DEMO_FEDERATION_HOOK_TOKEN: hookToken,
        IDC_DEMO_FEDERATION_INTERMEDIATE: ids.int1,
        IDC_DEMO_FEDERATION_INTERMEDIATE_HOOK_URL: `${origin}${HOOK_PATH}/ta/int1`,
        IDC_DEMO_FEDERATION_PROTECTED_INTERMEDIATE: ids.int2,
        IDC_DEMO_FEDERATION_PROTECTED_HOOK_URL: `${origin}${HOOK_PATH}/ta/int2`,
        IDC_DEMO_FEDERATION_OTHER_ANCHOR: ids.anchor2,
        IDC_DEMO_FEDERATION_CLIENT_ID: ids.client,
        IDC_DEMO_FEDERATION_CLIENT_KEY: JSON.stringify(
          // Stryker disable next-line LogicalOperator,OptionalChaining: equivalent: the demo key handover; the demo's client exists and starts at key version 0
          keys.key(ids.client, client?.keyVersion ?? 0).privateJwk,
        ),
        IDC_DEMO_FEDERATION_XL_UPPER_LIMIT: String(LIMITS.extendedListUpper),
        IDC_DEMO_FEDERATION_COLLECTION_UPPER_LIMIT: String(LIMITS.collectionUpper),
      },
    };
  } catch (err) {
    await close();
    throw err;
  }
}
