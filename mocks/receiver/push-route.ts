import { timingSafeEqual } from "node:crypto";
import type { Context, Hono } from "hono";
import { eventNameOf } from "../../src/protocols/caep.js";
import { decodeSet, judgeSet } from "./validator.js";
import { recordedHeaders, type ReceiverState, type Slot, type StoredSet } from "./state.js";
import type { AuthSeen, RespondBehaviour, SetProblem } from "./types.js";

/** Bodies over this are answered 413, counted and not stored (RFC 8935 SETs are small). */
export const MAX_BODY = 64 * 1024;
/** An over-cap body is read and dropped up to this, so the 413 reaches the Transmitter; past it the connection goes. */
const MAX_DRAIN = 4 * 1024 * 1024;
const MAX_DELAY_MS = 30_000;

/** What the standalone printer hears about each push. */
export interface PushNotice {
  readonly slot: string;
  readonly status: number;
  readonly bytes: number;
  readonly overCap: boolean;
  readonly set?: StoredSet;
}

/** Reads a body up to `max` bytes, counting every byte read; past `max` it drains without keeping. */
async function readCapped(req: Request, max: number): Promise<{ body?: Buffer; bytes: number }> {
  if (req.body === null) return { body: Buffer.alloc(0), bytes: 0 };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes <= max) chunks.push(value);
      else {
        chunks.length = 0;
        if (bytes > MAX_DRAIN) break;
      }
    }
  } catch {
    // the Transmitter went away mid-body: what arrived is counted
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return bytes > max ? { bytes } : { body: Buffer.concat(chunks), bytes };
}

function authOf(header: string | undefined, want: string | undefined): AuthSeen {
  if (header === undefined || header === "") return "absent";
  if (want === undefined) return "present";
  const a = Buffer.from(header);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b) ? "present" : "wrong";
}

const delay = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

/** The answer a check armed (RFC 8935 §2.3 error body for 4xx with err; Retry-After for 429/503). */
function armedAnswer(c: Context, b: RespondBehaviour): Response {
  const status = b.status!;
  const headers: Record<string, string> = {};
  if (b.retryAfter !== undefined) headers["retry-after"] = String(b.retryAfter);
  if (b.err !== undefined) {
    headers["content-type"] = "application/json";
    const body = { err: b.err, description: b.description ?? `answered ${status} on request of the harness` };
    return new Response(JSON.stringify(body), { status, headers });
  }
  return c.body(null, status as 200, headers);
}

/**
 * The push endpoints (RFC 8935 §2): `POST /push/<slot>`. Every request is counted (bytes, and
 * bodies over 64 KiB answered 413 and not stored); a request within the cap is judged by the
 * SET validator and recorded with the status answered: a behaviour a check armed first, then
 * the method (405), the Authorization the slot was given (401 `authentication_failed`), else
 * 202 with an empty body. Content-Type is recorded for the checks to judge, not enforced.
 */
export function mountPushRoute(
  app: Hono,
  s: ReceiverState,
  o: { closing: AbortSignal; notice?: (n: PushNotice) => void },
): void {
  app.all("/push/:slot", async (c) => {
    const at = new Date().toISOString();
    const slot = s.slots.get(c.req.param("slot"));
    s.flood.count++;
    if (!slot) {
      s.unknownSlot++;
      const { bytes } = await readCapped(c.req.raw, 0);
      s.flood.bytes += bytes;
      return c.json({ err: "invalid_request", description: "no such push endpoint" }, 404);
    }
    slot.flood.count++;
    const { body, bytes } = await readCapped(c.req.raw, MAX_BODY);
    s.flood.bytes += bytes;
    slot.flood.bytes += bytes;
    const answered = (status: number): void => {
      slot.answered[String(status)] = (slot.answered[String(status)] ?? 0) + 1;
    };
    if (body === undefined) {
      s.flood.overCap++;
      slot.flood.overCap++;
      answered(413);
      o.notice?.({ slot: slot.id, status: 413, bytes, overCap: true });
      return c.json({ err: "invalid_request", description: `the body is over ${MAX_BODY} bytes` }, 413);
    }
    const token = body.toString("utf8");
    const auth = authOf(c.req.header("authorization"), slot.authorization);
    const armed = slot.take();
    if (armed?.delayMs) await delay(Math.min(armed.delayMs, MAX_DELAY_MS), o.closing);

    const status =
      armed?.status ??
      (c.req.method !== "POST" ? 405 : slot.authorization !== undefined && auth !== "present" ? 401 : 202);
    const verdict = await judge(slot, token);
    const payload = verdict.payload;
    const jti = typeof payload?.jti === "string" ? payload.jti : undefined;
    const events =
      payload &&
      payload.events !== null &&
      typeof payload.events === "object" &&
      !Array.isArray(payload.events)
        ? Object.keys(payload.events)
            .slice(0, 20)
            .map((u) => u.slice(0, 512))
        : undefined;
    const contentType = c.req.header("content-type");
    const entry: StoredSet = {
      seq: s.nextSeq(),
      at,
      slot: slot.id,
      method: c.req.method,
      token,
      ...(jti !== undefined ? { jti: jti.slice(0, 1024) } : {}),
      ...(events ? { events } : {}),
      status,
      headers: recordedHeaders(c.req.raw.headers, auth),
      ...(contentType !== undefined ? { contentType } : {}),
      authorization: auth,
      ...(armed ? { armed } : {}),
      problems: verdict.problems,
      verified: verdict.verified,
    };
    answered(status);
    slot.countVerdict(verdict.problems);
    s.store(slot, entry);
    o.notice?.({ slot: slot.id, status, bytes, overCap: false, set: entry });

    if (armed?.status !== undefined) return armedAnswer(c, armed);
    if (status === 405)
      return c.json({ err: "invalid_request", description: "a SET is pushed with POST" }, 405);
    if (status === 401) {
      const scheme = /^\S+/.exec(slot.authorization ?? "")?.[0] ?? "Bearer";
      c.header("www-authenticate", `${scheme} realm="idconform"`);
      return c.json(
        {
          err: "authentication_failed",
          description: "the Authorization is not the one given at stream creation",
        },
        401,
      );
    }
    return c.body(null, 202);
  });
}

async function judge(
  slot: Slot,
  token: string,
): Promise<{ problems: SetProblem[]; verified: boolean; payload?: Record<string, unknown> }> {
  const j = slot.judge;
  // The kid lets a lazily fetched key set refresh when the Transmitter rotated its key.
  const kid = decodeSet(token).header?.kid;
  return judgeSet(token, {
    issuer: j.issuer,
    keys: await j.keys(typeof kid === "string" ? kid : undefined),
    ...(j.audience !== undefined ? { audience: j.audience } : {}),
    seenJtis: slot.seenJtis,
  });
}

/** The event name (CAEP) or URI of a SET's first event, for printing. */
export const eventLabel = (events: readonly string[] | undefined): string =>
  events && events[0] !== undefined ? (eventNameOf(events[0]) ?? events[0]) : "-";
