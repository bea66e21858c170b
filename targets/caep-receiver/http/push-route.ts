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
const isSetMediaType = (type: string | undefined): boolean =>
  (type ?? "").split(";")[0]?.trim().toLowerCase() === SET_MEDIA_TYPE;

/** The checks before the SET is read: the Transmitter's authorization, then the media type. */
function gate(c: Context, d: PushRouteDeps): SetError | undefined {
  if (!d.faults.has("push-auth-unchecked") && !d.authorizations.allows(c.req.header("authorization"))) {
    return new SetError(
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
  if (text === "too-large") throw new SetError("invalid_request", `the body exceeds ${max} bytes`, 413);
  if (text === "not-text") throw new MalformedSet("the body is not UTF-8 text");
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
      if (!(e instanceof SetError)) throw e;
      if (e instanceof MalformedSet && faults.has("malformed-500")) throw new Error("cannot parse the token");
      return refused(publicError(e, faults), e.status, faults);
    }
  };
}
