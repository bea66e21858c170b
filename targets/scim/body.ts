import { readBoundedBody } from "../../src/http/bounded-body.js";
import { LIMITS } from "./limits.js";

export type { BodyProblem } from "../../src/http/bounded-body.js";

/** Reads a request body as UTF-8 text within the target's bound (src/http/bounded-body.ts). */
export function readBoundedText(req: Request, max: number = LIMITS.maxBodyBytes) {
  return readBoundedBody(req, max);
}
