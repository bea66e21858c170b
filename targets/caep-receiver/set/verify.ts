import type { FaultSet } from "../faults.js";
import { checkEnvelope, checkIssuer } from "./envelope.js";
import { invalidRequest } from "./errors.js";
import { readEvents, type ReceivedEvent } from "./events.js";
import { decodeSet } from "./jws.js";
import { checkHeader, verifySignature } from "./signature.js";
import { checkSubject } from "./subject.js";
import type { TransmitterKeys } from "./transmitter-keys.js";

export interface VerifyContext {
  readonly issuer: string;
  readonly audience: string;
  readonly keys: TransmitterKeys;
  readonly faults: FaultSet;
  readonly nowSeconds: () => number;
}

/** A SET that passed every step: its jti, subject and the events this Receiver understands. */
export interface VerifiedSet {
  /** Undefined only under the jti-optional fault. */
  readonly jti: string | undefined;
  /** The sub_id (undefined only under the sub-id-optional fault). */
  readonly subject: Readonly<Record<string, unknown>> | undefined;
  readonly events: readonly ReceivedEvent[];
}

/**
 * Validates a SET (RFC 8417, SSF 1.0, CAEP 1.0) in a fixed order, so each defect gets the
 * RFC 8935 §2.4 code that fits it: (1) a compact JWS of two JSON objects, (2) the typ header,
 * (3) the issuer (invalid_issuer), (4) algorithm, kid and signature (invalid_key), (5) the
 * audience (invalid_audience), (6) iat, jti, no sub or exp, (7) sub_id, (8) the events.
 * Everything from (6) on is invalid_request.
 */
export async function verifySet(token: string, ctx: VerifyContext): Promise<VerifiedSet> {
  const { header, payload } = decodeSet(token);
  checkHeader(header, ctx.faults);
  checkIssuer(payload, ctx);
  await verifySignature(token, header, ctx);
  const jti = checkEnvelope(payload, ctx);
  const subject = payload.sub_id;
  if (subject === undefined && !ctx.faults.has("sub-id-optional"))
    throw invalidRequest("the SET lacks sub_id");
  if (subject !== undefined) checkSubject(subject, ctx.faults);
  const events = readEvents(payload.events, ctx.faults);
  return { jti, subject: subject as Record<string, unknown> | undefined, events };
}
