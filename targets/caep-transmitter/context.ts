import type { Emitter } from "./events/emitter.js";
import type { FaultSet } from "./faults.js";
import type { TransmitterKeys } from "./service/keys.js";
import type { Receivers } from "./service/receivers.js";
import type { StreamStore } from "./streams/store.js";

/** What the Transmitter's routes share. */
export interface TransmitterContext {
  readonly faults: FaultSet;
  readonly receivers: Receivers;
  readonly streams: StreamStore;
  readonly emitter: Emitter;
  readonly keys: TransmitterKeys;
  /** The issuer URL (known once the server listens). */
  issuer(): string;
}
