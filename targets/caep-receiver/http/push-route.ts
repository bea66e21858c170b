import type { Context } from "hono";
import { readBoundedBody } from "../../../src/http/bounded-body.js";
import type { FaultSet } from "../faults.js";
import { LIMITS } from "../limits.js";
import { publicError } from "../service/public-error.js";
import type { Receiver } from "../service/receiver.js";
import { MalformedSet, SetError } from "../set/errors.js";
import { SET_MEDIA_TYPE } from "../ssf.js";
import type { PushAuthorizations } from "./push-auth.js";
import { accepted, refused } from "./reply.js";

export interface PushRouteDeps {
  readonly receiver: Receiver;
  readonly authorizations: PushAuthorizations;
  readonly faults: FaultSet;
}

/** Whether a Content-Type is application/secevent+jwt (parameters allowed, case-insensitive). */
function isSetMediaType(type: string | undefined): boolean {
  if (type === undefined) return false;
  const [essence] = type.toLowerCase().split(";");
  // Stryker disable next-line OptionalChaining,MethodExpression: equivalent: split gives at least one part; HTTP strips a field value's outer whitespace, so trim() matters only for whitespace before a parameter ("type ;p=v"), which no requirement sends
  return essence?.trim() === SET_MEDIA_TYPE;
}

/** The checks before the SET is read: the Transmitter's authorization, then the media type. */
function gate(c: Context, d: PushRouteDeps): SetError | undefined {
  if (!d.faults.has("push-auth-unchecked") && !d.authorizations.allows(c.req.header("authorization"))) {
    return new SetError(
      // Stryker disable next-line StringLiteral: the body of a 401 no requirement reads (CAEPR-PUSH-AUTH takes 401 or 403 whatever they carry)
      "authentication_failed",
      "the request does not carry the expected authorization",
      401,
    );
  }
  if (!d.faults.has("content-type-unchecked") && !isSetMediaType(c.req.header("content-type"))) {
    return new SetError("invalid_request", `the body must be ${SET_MEDIA_TYPE}`);
  }
  return undefined;
}

/** Reads the SET from the body, bounded (413 beyond the limit, read no further). */
async function readSet(c: Context, faults: FaultSet): Promise<string> {
  const max = faults.has("no-body-limit") ? Number.POSITIVE_INFINITY : LIMITS.maxBodyBytes;
  const text = await readBoundedBody(c.req.raw, max);
  // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent under CAEPR-BODY-SIZE: without it the body is refused 400 as no JWS instead of 413, and both are allowed (the `true` variant, killed, goes with them)
  if (text === "too-large") {
    // Stryker disable next-line StringLiteral: the body of a 413 no requirement reads (CAEPR-BODY-SIZE takes 400 or 413)
    throw new SetError("invalid_request", `the body exceeds ${max} bytes`, 413);
  }
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: the marker is no JWS either, refused as malformed the same way (400 invalid_request); the `true` variant, killed, goes with them
  if (text === "not-text") throw new MalformedSet("the body is not UTF-8 text");
  // Stryker disable next-line MethodExpression: leniency no requirement asks for: a compact JWS has no whitespace, so only a body with some around the SET differs
  return text.trim();
}

/**
 * POST /ssf/push, the Receiver's push endpoint (RFC 8935 §2): the Transmitter's authorization,
 * Content-Type application/secevent+jwt, a body within the bound, then the SET. Accepted SETs
 * are acted on before the 202; refusals are 400 (401 for the authorization, 413 for the size)
 * with the RFC 8935 §2.4 JSON error.
 */
export function pushRoute(d: PushRouteDeps): (c: Context) => Promise<Response> {
  return async (c) => {
    const { faults } = d;
    try {
      const stop = gate(c, d);
      if (stop !== undefined) throw stop;
      await d.receiver.receive(await readSet(c, faults));
      return accepted(faults);
    } catch (e) {
      // Stryker disable next-line ConditionalExpression: equivalent in a run: every error a clean Receiver raises here is a SetError (the `true` variant, killed, goes with it)
      if (!(e instanceof SetError)) throw e;
      if (e instanceof MalformedSet && faults.has("malformed-500")) throw new Error("cannot parse the token");
      // The signature-failure-401 fault: a SET whose key or signature fails is answered as a
      // bad bearer token would be.
      const status = faults.has("signature-failure-401") && e.err === "invalid_key" ? 401 : e.status;
      return refused(publicError(e, faults), status, faults);
    }
  };
}
