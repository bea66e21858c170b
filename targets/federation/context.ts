import type { FaultSet } from "./faults.js";
import type { KeyRing } from "./keys.js";
import type { FederationIds } from "./model/fixture.js";
import type { Registry } from "./model/registry.js";

/** What every endpoint of the federation reference target shares. */
export interface FedContext {
  readonly faults: FaultSet;
  readonly origin: string;
  readonly ids: FederationIds;
  readonly registry: Registry;
  readonly keys: KeyRing;
  /** HMAC key of the listing and collection cursors, drawn at start. */
  readonly cursorKey: Buffer;
  /** External Trust Anchors the collection accepts (it has collected nothing below them). */
  readonly otherAnchors: ReadonlySet<string>;
  /** Seconds since the epoch. */
  now(): number;
}
