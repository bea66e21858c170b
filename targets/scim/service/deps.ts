import type { FaultSet } from "../faults.js";
import type { AccessRegistry } from "./access-registry.js";
import type { CursorCodec } from "./cursor.js";
import type { GroupStore } from "./group-store.js";
import type { Responder } from "./responder.js";
import type { UserStore } from "./user-store.js";

/** What the SCIM routes of one running target share. */
export interface ScimDeps {
  readonly faults: FaultSet;
  readonly respond: Responder;
  readonly users: UserStore;
  readonly groups: GroupStore;
  readonly access: AccessRegistry;
  readonly cursors: CursorCodec;
  /** The SCIM base URL (`<origin>/scim/v2`), known once the server listens. */
  readonly base: () => string;
}
