import type { Params } from "../http/params.js";
import type { Entity } from "../model/entity.js";

/** One request to an endpoint of `entity`, its parameters already read (query or form body). */
export interface EndpointRequest {
  readonly entity: Entity;
  readonly method: string;
  readonly url: URL;
  readonly params: Params;
  /** The query parameters, also for a POST (what some faults read instead of the body). */
  readonly query: Params;
}
