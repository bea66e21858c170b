import type { VciContext } from "../context.js";
import { VciError } from "../http/errors.js";
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

/** The challenge a server writes by listing the attribute names it means without their values. */
// Stryker disable next-line StringLiteral: sent only under the fault "www-authenticate-malformed"
const MALFORMED_CHALLENGE = "Bearer error, error_description, scope";

/**
 * An error of the credential or deferred endpoint: never encrypted, JSON, no-store; the
 * `error-description-quotes` fault puts a double quote and a backslash in the description,
 * `proof-error-quotes` and `error-description-unsafe-chars` (a line feed and non-ASCII
 * letters) that of invalid_proof errors; `proof-error-500` answers an invalid proof with 500,
 * `www-authenticate-malformed` an invalid token with a challenge of attribute names only.
 */
export function credentialError(ctx: VciContext, err: VciError): Response {
  // Stryker disable all: runs only under the faults proof-error-500 and www-authenticate-malformed
  if (ctx.faults.has("proof-error-500") && err.error === "invalid_proof")
    return jsonResponse(
      { error: "server_error", error_description: "the proof could not be processed" },
      500,
      NO_STORE,
    );
  if (ctx.faults.has("www-authenticate-malformed") && err.status === 401 && "www-authenticate" in err.headers)
    return errorResponse(
      new VciError(401, err.error, err.description, { "www-authenticate": MALFORMED_CHALLENGE }),
    );
  // Stryker restore all
  return errorResponse(
    err,
    ctx.faults.has("error-description-quotes") && err.status === 400
      ? { describe: (d) => `${d} (see "C:\\issuer\\errors")` }
      : ctx.faults.has("proof-error-quotes") && err.error === "invalid_proof"
        ? { describe: (d) => `${d}: rejected proof header {"typ": "openid4vci-proof+jwt"}` }
        : ctx.faults.has("error-description-unsafe-chars") && err.error === "invalid_proof"
          ? { describe: (d) => `${d}\nPrüfung fehlgeschlagen` }
          : {},
  );
}
