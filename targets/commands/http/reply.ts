import type { FaultSet } from "../faults.js";

/**
 * A failure that becomes a JSON error response (specs/002 area A Errors). Thrown anywhere
 * below the Command Endpoint and shaped by the app's error handler, so every error takes
 * one path. `description` is short human text and never carries internals.
 */
export class CommandError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string | undefined,
    /** Members besides error and error_description (account_state and sub of a 409). */
    readonly extra: Record<string, unknown> = {},
  ) {
    // Stryker disable next-line all: the message and name of the exception stay in the RP; only status, error and description reach the wire
    super(description ?? error);
    // Stryker disable next-line all: see above
    this.name = "CommandError";
  }
}

/** 400 invalid_request: a malformed command request or an invalid Command Token. */
export const invalidRequest = (description: string): CommandError =>
  new CommandError(400, "invalid_request", description);

/**
 * 400 invalid_request for a request that carries no Command Token at all: command_token
 * missing, or not a compact JWS (the `malformed-500` fault turns exactly these into 500).
 */
export class MalformedRequest extends CommandError {
  constructor(description: string) {
    super(400, "invalid_request", description);
    // Stryker disable next-line all: the exception's name stays in the RP
    this.name = "MalformedRequest";
  }
}

/** Writes the JSON responses of the Command Endpoint (specs/002 area A Endpoints). */
export interface Replier {
  /** A success: JSON with Cache-Control no-store (200 unless told). */
  ok(body: unknown, status?: number): Response;
  /** An error body: `error`, `error_description` when there is one, and its extra members. */
  error(err: CommandError): Response;
}

const json = (
  body: unknown,
  status: number,
  headers: Record<string, string>,
  type = "application/json",
): Response => new Response(JSON.stringify(body), { status, headers: { ...headers, "content-type": type } });

/**
 * The replier of one target. Errors are never cacheable either; the `no-store-missing`
 * fault drops the header from successes only, the responses the requirement speaks of.
 * `error-content-type-text` labels error bodies text/plain (`conflict-content-type-text` only 409s).
 */
export function createReplier(faults: FaultSet): Replier {
  const successHeaders: Record<string, string> = faults.has("no-store-missing")
    ? {}
    : { "cache-control": "no-store" };
  // Stryker disable next-line ArrowFunction: equivalent: json() defaults to application/json too
  const errorType = (status: number): string =>
    // Stryker disable next-line ConditionalExpression,LogicalOperator: fault machinery: differs only under the error-content-type-text and conflict-content-type-text faults
    faults.has("error-content-type-text") || (status === 409 && faults.has("conflict-content-type-text"))
      ? // Stryker disable next-line StringLiteral: fault machinery (see above)
        "text/plain"
      : "application/json";
  return {
    ok: (body, status = 200) => json(body, status, successHeaders),
    error: (err) =>
      json(
        {
          error: err.error,
          // Stryker disable next-line all: error_description is optional (Errors: invalid-request responses MAY carry it)
          ...(err.description !== undefined ? { error_description: err.description } : {}),
          ...err.extra,
        },
        err.status,
        // Stryker disable next-line all: the document asks Cache-Control no-store of successes (Endpoints), not of errors
        { "cache-control": "no-store" },
        errorType(err.status),
      ),
  };
}
