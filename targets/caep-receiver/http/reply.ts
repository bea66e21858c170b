import type { FaultSet } from "../faults.js";
import type { PublicError } from "../service/public-error.js";

/**
 * The push endpoint's answers (RFC 8935 §2.3, §2.4): 202 with an empty body for an accepted
 * SET; a JSON `{err, description}` with the refusal's status otherwise. The
 * `success-200-json` and `error-text-plain` faults change their shape.
 */
export function accepted(faults: FaultSet): Response {
  if (faults.has("success-200-json")) {
    return new Response(JSON.stringify({ status: "accepted" }), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  }
  return new Response(null, { status: 202 });
}

export function refused(error: PublicError, status: number, faults: FaultSet): Response {
  if (faults.has("error-text-plain")) {
    return new Response(`${error.err}: ${error.description}`, {
      status,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  return new Response(JSON.stringify(error), { status, headers: { "content-type": "application/json" } });
}
