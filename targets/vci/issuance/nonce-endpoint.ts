import type { VciContext } from "../context.js";
import { jsonResponse, NO_STORE } from "../http/reply.js";
import type { Nonces } from "./nonces.js";

/**
 * POST /issuer/nonce (specs/000 Endpoints: Nonce Endpoint): no token, any body ignored,
 * 200 `{c_nonce}` with Cache-Control: no-store (dropped by the `nonce-cacheable` fault),
 * labelled application/json (text/plain under `nonce-text-type`).
 */
export const nonceEndpoint = (ctx: VciContext, nonces: Nonces) => (): Response =>
  jsonResponse(
    { c_nonce: nonces.issue() },
    200,
    ctx.faults.has("nonce-cacheable") ? {} : NO_STORE,
    ctx.faults.has("nonce-text-type") ? "text/plain" : "application/json",
  );
