import type { Context, Hono } from "hono";
import type { JSONWebKeySet } from "jose";
import { readBoundedBody } from "../../src/http/bounded-body.js";
import { MAX_PER_SLOT, received, type ReceiverState, type Slot } from "./state.js";
import type { RespondBehaviour, SlotCreated } from "./types.js";

/** Control bodies are the harness's own (a key set at most), still bounded. */
const MAX_CONTROL_BODY = 256 * 1024;
const MAX_WAIT_MS = 120_000;
const MAX_KEYS = 50;
const MAX_AUTHORIZATION = 4096;
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k", "oth"];

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const bad = (c: Context, error: string, status: 400 | 404 | 409 = 400): Response => c.json({ error }, status);
const num = (v: string | undefined, fallback: number, max: number): number => {
  const n = Number(v ?? fallback);
  return Number.isFinite(n) ? Math.max(0, Math.min(n, max)) : fallback;
};

/** A respond body (RFC 8935 §2.3 errors, RFC 9110 Retry-After), checked; a string says what is wrong. */
export function readBehaviour(b: Record<string, unknown>): RespondBehaviour | string {
  const { status, err, description, retryAfter, delayMs, times } = b;
  if (
    status !== undefined &&
    !(Number.isInteger(status) && (status as number) >= 200 && (status as number) <= 599)
  )
    return "status is not an HTTP status from 200 to 599";
  if (err !== undefined && (typeof err !== "string" || err.length > 200)) return "err is not a short string";
  if (description !== undefined && (typeof description !== "string" || description.length > 2000))
    return "description is not a string of at most 2000 characters";
  if (
    retryAfter !== undefined &&
    !(Number.isInteger(retryAfter) && (retryAfter as number) >= 0 && (retryAfter as number) <= 3600)
  )
    return "retryAfter is not a whole number of seconds from 0 to 3600";
  if (
    delayMs !== undefined &&
    !(Number.isInteger(delayMs) && (delayMs as number) >= 0 && (delayMs as number) <= 30_000)
  )
    return "delayMs is not a whole number of milliseconds from 0 to 30000";
  if (
    times !== undefined &&
    !(Number.isInteger(times) && (times as number) >= 1 && (times as number) <= 1000)
  )
    return "times is not a whole number from 1 to 1000";
  if (status === undefined && delayMs === undefined) return "give status, delayMs or both";
  if (status === undefined && (err !== undefined || retryAfter !== undefined))
    return "err and retryAfter go with a status";
  return {
    ...(status !== undefined ? { status: status as number } : {}),
    ...(err !== undefined ? { err: err as string } : {}),
    ...(description !== undefined ? { description: description as string } : {}),
    ...(retryAfter !== undefined ? { retryAfter: retryAfter as number } : {}),
    ...(delayMs !== undefined ? { delayMs: delayMs as number } : {}),
    ...(times !== undefined ? { times: times as number } : {}),
  };
}

/**
 * The mock Receiver's control routes (under `/__idc/`, header `x-idc-control`): what the
 * caep-transmitter checks use to make push endpoints, arm answers and read what was pushed.
 * Harness-internal: nothing here is the Transmitter's traffic. The slot's Authorization is
 * taken in, never given back.
 */
export function mountControlRoutes(app: Hono, token: string, s: ReceiverState): void {
  const guard = (c: Context): boolean => c.req.header("x-idc-control") === token;

  async function json(c: Context): Promise<Record<string, unknown> | Response> {
    const text = await readBoundedBody(c.req.raw, MAX_CONTROL_BODY);
    if (text === "too-large" || text === "not-text") return bad(c, `the body is ${text}`);
    if (text === "") return {};
    try {
      const v = JSON.parse(text) as unknown;
      return isObject(v) ? v : bad(c, "the body is not a JSON object");
    } catch {
      return bad(c, "the body is not JSON");
    }
  }
  const slotOf = (c: Context): Slot | Response =>
    s.slots.get(c.req.param("slot") ?? "") ?? bad(c, "no such slot", 404);

  app.post("/__idc/slots", async (c) => {
    if (!guard(c)) return c.body(null, 403);
    const b = await json(c);
    if (b instanceof Response) return b;
    const { authorization, judge } = b;
    if (
      authorization !== undefined &&
      (typeof authorization !== "string" || authorization === "" || authorization.length > MAX_AUTHORIZATION)
    )
      return bad(c, `authorization is not a string of 1 to ${MAX_AUTHORIZATION} characters`);
    let source;
    if (judge !== undefined) {
      if (!isObject(judge)) return bad(c, "judge is not an object {issuer, jwks, audience?}");
      const { issuer, jwks, audience } = judge;
      if (typeof issuer !== "string" || issuer === "") return bad(c, "judge.issuer is not a string");
      const keys = isObject(jwks) ? jwks.keys : undefined;
      if (!Array.isArray(keys) || keys.length > MAX_KEYS || !keys.every(isObject))
        return bad(c, `judge.jwks is not {keys: [...]} with at most ${MAX_KEYS} JWKs`);
      if (keys.some((k) => PRIVATE_MEMBERS.some((m) => m in k)))
        return bad(c, "judge.jwks holds a private or symmetric key member: give the public keys");
      const audOk =
        audience === undefined ||
        typeof audience === "string" ||
        (Array.isArray(audience) && audience.length > 0 && audience.every((a) => typeof a === "string"));
      if (!audOk) return bad(c, "judge.audience is not a string or a non-empty array of strings");
      const set = { keys } as JSONWebKeySet;
      source = {
        issuer,
        ...(audience !== undefined ? { audience: audience as string | string[] } : {}),
        keys: () => Promise.resolve(set),
      };
    }
    const slot = s.addSlot({
      ...(authorization !== undefined ? { authorization } : {}),
      judge: source ?? { issuer: null, keys: () => Promise.resolve(null) },
    });
    if (!slot) return bad(c, "the mock holds as many slots as it keeps: delete some", 409);
    const answer: SlotCreated = { slot: slot.id, endpointUrl: slot.endpointUrl };
    return c.json(answer, 201);
  });

  app.get("/__idc/slots", (c) =>
    guard(c) ? c.json([...s.slots.values()].map((x) => x.stats())) : c.body(null, 403),
  );

  app.delete("/__idc/slots/:slot", (c) => {
    if (!guard(c)) return c.body(null, 403);
    return s.deleteSlot(c.req.param("slot")) ? c.body(null, 204) : bad(c, "no such slot", 404);
  });

  app.post("/__idc/slots/:slot/respond", async (c) => {
    if (!guard(c)) return c.body(null, 403);
    const slot = slotOf(c);
    if (slot instanceof Response) return slot;
    const b = await json(c);
    if (b instanceof Response) return b;
    const behaviour = readBehaviour(b);
    if (typeof behaviour === "string") return bad(c, behaviour);
    if (!slot.arm(behaviour)) return bad(c, "too many behaviours armed on this slot", 409);
    return c.body(null, 204);
  });

  app.delete("/__idc/slots/:slot/respond", (c) => {
    if (!guard(c)) return c.body(null, 403);
    const slot = slotOf(c);
    if (slot instanceof Response) return slot;
    slot.disarm();
    return c.body(null, 204);
  });

  app.get("/__idc/slots/:slot/sets", (c) => {
    if (!guard(c)) return c.body(null, 403);
    const slot = slotOf(c);
    if (slot instanceof Response) return slot;
    const since = num(c.req.query("since"), 0, Number.MAX_SAFE_INTEGER);
    return c.json(slot.log.filter((e) => e.seq > since).map(received));
  });

  app.get("/__idc/slots/:slot/wait", async (c) => {
    if (!guard(c)) return c.body(null, 403);
    const slot = slotOf(c);
    if (slot instanceof Response) return slot;
    const since = num(c.req.query("since"), 0, Number.MAX_SAFE_INTEGER);
    const count = num(c.req.query("count"), 1, MAX_PER_SLOT);
    const after = (): number => slot.log.filter((e) => e.seq > since).length;
    await s.changes.wait(
      () => after() >= count || !s.slots.has(slot.id),
      num(c.req.query("timeoutMs"), 5000, MAX_WAIT_MS),
    );
    return c.json(slot.log.filter((e) => e.seq > since).map(received));
  });

  app.get("/__idc/slots/:slot/stats", (c) => {
    if (!guard(c)) return c.body(null, 403);
    const slot = slotOf(c);
    return slot instanceof Response ? slot : c.json(slot.stats());
  });

  app.get("/__idc/stats", (c) => (guard(c) ? c.json(s.stats()) : c.body(null, 403)));
}
