import { readEvents } from "../set/events.js";
import { decodeSet } from "../set/jws.js";
import { applyEvents } from "./effects.js";
import type { SubjectContext } from "./subjects.js";

/**
 * The acts-before-verify fault: the events of a SET are dispatched as soon as it is decoded
 * (an event bus fed before the validator runs), and its signature and claims are verified
 * afterwards: a SET then refused has already acted. What cannot be read is left to the
 * verifier, which refuses it.
 */
export function actBeforeVerify(token: string, ctx: SubjectContext): void {
  try {
    const { payload } = decodeSet(token);
    const subject = payload.sub_id;
    if (typeof subject !== "object" || subject === null || Array.isArray(subject)) return;
    const events = readEvents(payload.events, ctx.faults);
    applyEvents({ jti: undefined, subject: subject as Record<string, unknown>, events }, ctx);
  } catch {
    // Unreadable: the verifier refuses it.
  }
}
