import type { JWK } from "jose";
import type { SuiteSetup } from "../../src/engine/suite.js";
import { startMockFederation } from "../../mocks/federation/index.js";
import type { FederationProfile } from "./profile.js";

/** What the suite's setup hands the checks (`ctx.provided.federationMock`): the mock entities' identifiers. */
export interface MockIds {
  readonly leaf: string;
  readonly intermediate: string;
  readonly anchor: string;
}

/** The mock entities of the run, when the setup started them. */
export function mockIds(provided: Record<string, unknown>): MockIds | undefined {
  const m = provided.federationMock;
  return m !== null && typeof m === "object" ? (m as MockIds) : undefined;
}

/**
 * Starts the mock federation entities (mocks/federation) when the run needs them: the harness
 * authenticates as the mock leaf (`clientAuth` without `clientId`: the leaf signs with
 * `clientKey`). The leaf and the Intermediate name the target as superior. The mock Trust
 * Anchor is not used for FED-COLL-TA-OTHER: a target that knows nothing of it may only refuse
 * it, which FED-COLL-TA-UNKNOWN already judges; that requirement needs `trustAnchors.other`.
 */
export async function federationSetup(p: FederationProfile): Promise<SuiteSetup> {
  const asLeaf = p.clientAuth !== undefined && p.clientAuth.clientId === undefined;
  if (!asLeaf) return {};
  const mock = await startMockFederation({
    authorityHint: p.baseUrl,
    ...(p.mocks.port !== undefined ? { port: p.mocks.port } : {}),
    ...(p.mocks.publicUrl !== undefined ? { publicUrl: p.mocks.publicUrl } : {}),
    ...(asLeaf && p.clientAuth ? { leafKey: JSON.parse(p.clientAuth.clientKey) as JWK } : {}),
  });
  const ids: MockIds = { leaf: mock.leaf.id, intermediate: mock.intermediate.id, anchor: mock.anchor.id };
  return { provide: { federationMock: ids }, teardown: () => mock.close() };
}
