/** Bodies up to this size are kept whole in the poll log. */
const KEEP_BODY = 16 * 1024;
/** jtis of one ack list or setErrs object the mock applies and logs at most. */
const MAX_JTIS = 1000;
const MAX_JTI = 256;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

export interface PollRequest {
  /** The parsed body, when it was JSON and small enough to keep. */
  readonly body?: unknown;
  readonly parseError?: string;
  /** What is wrong with the request's form (RFC 8936 §2.1); empty when nothing is. */
  readonly problems: string[];
  /** A bound of the mock the request goes over (more than 1000 jtis, an empty or 256+ character jti): not a form problem, still not applied. */
  readonly overLimit?: string;
  /** The RFC 8936 members as received (lists cut to 1000 entries), for the log. */
  readonly members: { maxEvents?: unknown; returnImmediately?: unknown; ack?: unknown; setErrs?: unknown };
  readonly maxEvents?: number;
  readonly returnImmediately?: boolean;
  readonly ack: string[];
  readonly setErrs: Record<string, { err?: unknown; description?: unknown }>;
}

/**
 * Reads a poll request body (RFC 8936 §2.1): a JSON object whose optional members are
 * `maxEvents` (a non-negative integer), `returnImmediately` (a boolean), `ack` (an array of
 * jti strings) and `setErrs` (an object from jti to `{err, description}` with string values).
 * Unknown members are allowed. Anything else is a problem the mock answers with a 400; so is a
 * request over one of its bounds (`overLimit`), which is not a problem of form.
 */
export function readPoll(text: string): PollRequest {
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    return {
      parseError: "the body is not JSON",
      problems: ["the body is not JSON"],
      members: {},
      ack: [],
      setErrs: {},
    };
  }
  const keep = text.length <= KEEP_BODY ? { body } : {};
  if (!isObject(body))
    return { ...keep, problems: ["the body is not a JSON object"], members: {}, ack: [], setErrs: {} };
  const problems: string[] = [];
  const { maxEvents, returnImmediately, ack, setErrs } = body;
  const members: PollRequest["members"] = {};
  if (maxEvents !== undefined) members.maxEvents = maxEvents;
  if (returnImmediately !== undefined) members.returnImmediately = returnImmediately;
  if (ack !== undefined) members.ack = Array.isArray(ack) ? ack.slice(0, MAX_JTIS) : ack;
  if (setErrs !== undefined)
    members.setErrs = isObject(setErrs)
      ? Object.fromEntries(Object.entries(setErrs).slice(0, MAX_JTIS))
      : setErrs;

  if (maxEvents !== undefined && !(Number.isInteger(maxEvents) && (maxEvents as number) >= 0))
    problems.push("maxEvents is not a non-negative integer");
  if (returnImmediately !== undefined && typeof returnImmediately !== "boolean")
    problems.push("returnImmediately is not a boolean");
  const limits: string[] = [];
  const badJti = (j: string): boolean => j === "" || j.length > MAX_JTI;
  const acks: string[] = [];
  if (ack !== undefined) {
    if (!Array.isArray(ack) || !ack.every((j) => typeof j === "string"))
      problems.push("ack is not an array of jti strings");
    else if (ack.length > MAX_JTIS) limits.push(`ack names more than ${MAX_JTIS} jtis`);
    else if ((ack as string[]).some(badJti))
      limits.push(`ack names an empty jti or one over ${MAX_JTI} characters`);
    else acks.push(...(ack as string[]));
  }
  const errs: Record<string, { err?: unknown; description?: unknown }> = {};
  if (setErrs !== undefined) {
    if (!isObject(setErrs)) problems.push("setErrs is not a JSON object");
    else if (Object.keys(setErrs).length > MAX_JTIS) limits.push(`setErrs names more than ${MAX_JTIS} jtis`);
    else
      for (const [jti, e] of Object.entries(setErrs)) {
        if (!isObject(e) || typeof e.err !== "string") {
          problems.push(`setErrs[${JSON.stringify(jti.slice(0, 64))}] is not an object with a string err`);
          break;
        }
        if (e.description !== undefined && typeof e.description !== "string") {
          problems.push(`setErrs[${JSON.stringify(jti.slice(0, 64))}].description is not a string`);
          break;
        }
        errs[jti] = { err: e.err, description: e.description };
      }
  }
  return {
    ...keep,
    problems,
    ...(limits.length > 0 ? { overLimit: limits.join("; ") } : {}),
    members,
    ...(typeof maxEvents === "number" && problems.length === 0 ? { maxEvents } : {}),
    ...(typeof returnImmediately === "boolean" ? { returnImmediately } : {}),
    ack: acks,
    setErrs: errs,
  };
}
