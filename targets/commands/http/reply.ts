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
    super(description ?? error);
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
  const errorType = (status: number): string =>
    faults.has("error-content-type-text") || (status === 409 && faults.has("conflict-content-type-text"))
      ? "text/plain"
      : "application/json";
  return {
    ok: (body, status = 200) => json(body, status, successHeaders),
    error: (err) =>
      json(
        {
          error: err.error,
          ...(err.description !== undefined ? { error_description: err.description } : {}),
          ...err.extra,
        },
        err.status,
        { "cache-control": "no-store" },
        errorType(err.status),
      ),
  };
}
