import type { VciContext } from "../context.js";
import type { VciError } from "../http/errors.js";
import { errorResponse, jsonResponse, NO_STORE } from "../http/reply.js";
import { encryptResponse, type ResponseEncryption } from "./encryption.js";

/**
 * A success of the credential or deferred endpoint: a compact JWE (`application/jwt`) when
 * the wallet gave encryption parameters (plain JSON under `response-not-encrypted`).
 */
export async function credentialReply(
  ctx: VciContext,
  body: Record<string, unknown>,
  status: 200 | 202,
  encryption: ResponseEncryption | undefined,
): Promise<Response> {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,BlockStatement: equivalent in a clean run: encryption_required is true, so every request answered 200 or 202 gave encryption; it is undefined only under the encryption-required-unenforced fault
  if (encryption === undefined || ctx.faults.has("response-not-encrypted")) {
    return jsonResponse(body, status, NO_STORE);
  }
  return new Response(await encryptResponse(body, encryption), {
    status,
    headers: { ...NO_STORE, "content-type": "application/jwt" },
  });
}

/**
 * An error of the credential or deferred endpoint: never encrypted, JSON, no-store; the
 * `error-description-quotes` fault puts a double quote and a backslash in the description.
 */
export function credentialError(ctx: VciContext, err: VciError): Response {
  return errorResponse(
    err,
    ctx.faults.has("error-description-quotes") && err.status === 400
      ? { describe: (d) => `${d} (see "C:\\issuer\\errors")` }
      : ctx.faults.has("proof-error-quotes") && err.error === "invalid_proof"
        ? { describe: (d) => `${d}: rejected proof header {"typ": "openid4vci-proof+jwt"}` }
        : {},
  );
}
