import { controlCall } from "../../src/http/mock-control.js";
import type {
  ReceivedSet,
  ReceiverStats,
  RespondBehaviour,
  SlotCreated,
  SlotRequest,
  SlotStats,
} from "./types.js";

/** How long a plain control call may take (the mock answers these at once). */
const CALL_MS = 5000;
/** Slack over a waiting call's own timeout, for the answer to travel back. */
const SLACK_MS = 5000;

/**
 * The checks' side of the mock Receiver's control routes (mocks/receiver/control-routes.ts),
 * one method per route. Harness-internal traffic, not evidence: each call is bounded in time,
 * and a non-2xx answer throws with the route and status (never the control token or the
 * slot's authorization).
 */
export class ReceiverClient {
  constructor(
    readonly url: string,
    private readonly controlToken: string,
  ) {}

  /** A push endpoint for one stream: give `endpointUrl` and `authorization` to the Transmitter. */
  async createSlot(o: SlotRequest = {}): Promise<SlotCreated> {
    return (await this.send<SlotCreated>("POST", "/__idc/slots", o, CALL_MS)).body!;
  }

  /** Every slot's counters. */
  async slots(): Promise<SlotStats[]> {
    return (await this.send<SlotStats[]>("GET", "/__idc/slots", undefined, CALL_MS)).body!;
  }

  /** Removes a slot and its log (later pushes to it answer 404); false when there was none. */
  async deleteSlot(slot: string): Promise<boolean> {
    const r = await this.send(
      "DELETE",
      `/__idc/slots/${encodeURIComponent(slot)}`,
      undefined,
      CALL_MS,
      [404],
    );
    return r.status === 204;
  }

  /** Arms how the next `times` pushes to the slot are answered (400 with err, 503/429 with Retry-After, a delay). */
  async respond(slot: string, b: RespondBehaviour): Promise<void> {
    await this.send("POST", `/__idc/slots/${encodeURIComponent(slot)}/respond`, b, CALL_MS);
  }

  /** Drops behaviours armed and not used yet. */
  async disarm(slot: string): Promise<void> {
    await this.send("DELETE", `/__idc/slots/${encodeURIComponent(slot)}/respond`, undefined, CALL_MS);
  }

  /** Pushes received on the slot with `seq` after `since` (the log keeps the last 1000 per slot). */
  async sets(slot: string, since = 0): Promise<ReceivedSet[]> {
    const q = new URLSearchParams({ since: String(since) });
    return (
      await this.send<ReceivedSet[]>(
        "GET",
        `/__idc/slots/${encodeURIComponent(slot)}/sets?${q}`,
        undefined,
        CALL_MS,
      )
    ).body!;
  }

  /** Resolves when `count` pushes arrived after `since`, or at the timeout with what there is. */
  async wait(slot: string, count: number, timeoutMs: number, since = 0): Promise<ReceivedSet[]> {
    const q = new URLSearchParams({
      count: String(count),
      timeoutMs: String(timeoutMs),
      since: String(since),
    });
    return (
      await this.send<ReceivedSet[]>(
        "GET",
        `/__idc/slots/${encodeURIComponent(slot)}/wait?${q}`,
        undefined,
        timeoutMs + SLACK_MS,
      )
    ).body!;
  }

  /** One slot's counters: pushes, bytes, over-cap bodies, statuses answered, verdicts per rule. */
  async slotStats(slot: string): Promise<SlotStats> {
    return (
      await this.send<SlotStats>("GET", `/__idc/slots/${encodeURIComponent(slot)}/stats`, undefined, CALL_MS)
    ).body!;
  }

  /** The whole mock's counters (pushes to unknown slots included). */
  async stats(): Promise<ReceiverStats> {
    return (await this.send<ReceiverStats>("GET", "/__idc/stats", undefined, CALL_MS)).body!;
  }

  private send<T>(
    method: "GET" | "POST" | "DELETE",
    path: string,
    body: unknown,
    timeoutMs: number,
    allowed: number[] = [],
  ): Promise<{ status: number; body?: T }> {
    const mock = { name: "mock receiver", url: this.url, token: this.controlToken };
    return controlCall<T>(mock, method, path, body, timeoutMs, allowed);
  }
}
