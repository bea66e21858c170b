import { isObject, type JsonObject } from "../http/json-body.js";
import { POLL_METHOD, PUSH_METHOD } from "../ssf.js";
import { InputProblem, readConfig } from "./config-input.js";
import type { Delivery, ReceiverSupplied } from "./stream.js";

/**
 * Fault create-unvalidated-delivery: a create request's members are read as usual, but its
 * delivery is taken as sent, unchecked: push when its method says so, with whatever endpoint_url
 * and authorization_header it carries, and poll for anything else.
 */
export function deliveryAsSent(b: JsonObject): ReceiverSupplied | InputProblem {
  const rest = readConfig({ ...b, delivery: undefined });
  if (rest instanceof InputProblem) return rest;
  const d = isObject(b.delivery) ? b.delivery : {};
  const delivery = (
    d.method === PUSH_METHOD
      ? { method: PUSH_METHOD, endpointUrl: d.endpoint_url, authorizationHeader: d.authorization_header }
      : { method: POLL_METHOD }
  ) as Delivery;
  return { ...rest, delivery };
}
