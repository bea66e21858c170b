import { controlCall, MockClient } from "../../src/http/mock-control.js";
import type { MockLogEntry } from "../../src/http/mock-control.js";
import type { JWK } from "jose";
import type { SetEvent } from "./set.js";
import type {
  ConfigurationAnswer,
  EmitAnswer,
  JwksFetches,
  OutcomesAnswer,
  PollLogEntry,
  PollStats,
  StreamView,
} from "./types.js";

/** How long a plain control call may take (the mock answers these at once). */
const CALL_MS = 5000;
/** Slack over a waiting call's own timeout, for the answer to travel back. */
const SLACK_MS = 5000;

/**
 * The checks' side of the mock Transmitter's control routes (mocks/transmitter/control-routes.ts),
 * one method per route. Harness-internal traffic, not evidence: each call is bounded in time,
 * and a non-2xx answer throws with the route and status (never the control token).
 */
export class TransmitterClient extends MockClient {
  constructor(
    url: string,
    private readonly controlToken: string,
  ) {
    super(url, controlToken);
  }

  /** Log entries of what the Receiver sent (every request; Authorization as present/absent/wrong). */
  async log(pathPrefix = "", since = 0): Promise<MockLogEntry[]> {
    const q = new URLSearchParams({ path: pathPrefix, since: String(since) });
    return (await this.send<MockLogEntry[]>("GET", `/__idc/log?${q}`, undefined, CALL_MS)).body!;
  }

  /** The discovery document as the mock serves it, its events_supported and the discovery path (not logged). */
  async configuration(): Promise<ConfigurationAnswer> {
    return (await this.send<ConfigurationAnswer>("GET", "/__idc/configuration", undefined, CALL_MS)).body!;
  }

  async streams(): Promise<StreamView[]> {
    return (await this.send<StreamView[]>("GET", "/__idc/streams", undefined, CALL_MS)).body!;
  }

  /** The first stream once one exists, or undefined at the timeout. */
  async waitForStream(timeoutMs: number): Promise<StreamView | undefined> {
    const q = new URLSearchParams({ timeoutMs: String(timeoutMs) });
    const r = await this.send<StreamView>(
      "GET",
      `/__idc/streams/wait?${q}`,
      undefined,
      timeoutMs + SLACK_MS,
      [404],
    );
    return r.status === 404 ? undefined : r.body;
  }

  /** Publishes exactly this key set at jwks_uri; with `signingKey` the mock signs its own SETs with it from now on. */
  async publishJwks(keys: JWK[], signingKey?: JWK): Promise<void> {
    await this.send("POST", "/__idc/jwks", { keys, ...(signingKey ? { signingKey } : {}) }, CALL_MS);
  }

  async jwksFetches(): Promise<JwksFetches> {
    return (await this.send<JwksFetches>("GET", "/__idc/jwks/fetches", undefined, CALL_MS)).body!;
  }

  /** Waits until jwks_uri was fetched more than `after` times in all (or the timeout); the fetches then. */
  async waitForJwksFetch(after: number, timeoutMs: number): Promise<JwksFetches> {
    const q = new URLSearchParams({
      after: String(after),
      timeoutMs: String(Math.max(0, Math.round(timeoutMs))),
    });
    return (
      await this.send<JwksFetches>("GET", `/__idc/jwks/fetches/wait?${q}`, undefined, timeoutMs + SLACK_MS)
    ).body!;
  }

  /**
   * Waits until the stream's latest verification request has its verification SET settled
   * (push: answered; poll: acknowledged or reported) or the timeout; the stream then, or
   * undefined when the mock no longer knows it.
   */
  async waitForVerification(streamId: string, timeoutMs: number): Promise<StreamView | undefined> {
    const q = new URLSearchParams({ streamId, timeoutMs: String(Math.max(0, Math.round(timeoutMs))) });
    const r = await this.send<StreamView | null>(
      "GET",
      `/__idc/verification/wait?${q}`,
      undefined,
      timeoutMs + SLACK_MS,
      [404],
    );
    return r.body ?? undefined;
  }

  /** Counts over every poll request of the stream (the poll log keeps only the latest); undefined when never polled. */
  async pollStats(streamId: string): Promise<PollStats | undefined> {
    const q = new URLSearchParams({ streamId });
    return (
      (await this.send<PollStats | null>("GET", `/__idc/poll/stats?${q}`, undefined, CALL_MS)).body ??
      undefined
    );
  }

  /** Queues SETs for the stream's poll endpoint (a jti queued before is delivered again). */
  async enqueue(streamId: string | undefined, sets: { jti: string; token: string }[]): Promise<void> {
    await this.send("POST", "/__idc/poll/enqueue", { ...(streamId ? { streamId } : {}), sets }, CALL_MS);
  }

  /** Waits until every jti has an outcome (acknowledged or in setErrs) or the timeout passes. */
  async outcomes(streamId: string | undefined, jtis: string[], timeoutMs: number): Promise<OutcomesAnswer> {
    const body = { ...(streamId ? { streamId } : {}), jtis, timeoutMs };
    return (await this.send<OutcomesAnswer>("POST", "/__idc/poll/outcomes", body, timeoutMs + SLACK_MS))
      .body!;
  }

  /** Every poll request the Receiver made after `since` (bounded). */
  async pollLog(since = 0, streamId?: string): Promise<PollLogEntry[]> {
    const q = new URLSearchParams({ since: String(since), ...(streamId ? { streamId } : {}) });
    return (await this.send<PollLogEntry[]>("GET", `/__idc/poll/log?${q}`, undefined, CALL_MS)).body!;
  }

  /** The mock's page size (null: its default) and jtis to deliver once more after their acknowledgement. */
  async pollConfig(
    streamId: string | undefined,
    o: { maxPerPoll?: number | null; redeliverAcked?: string[] },
  ): Promise<{ maxPerPoll: number; unknown: string[] }> {
    const body = { ...(streamId ? { streamId } : {}), ...o };
    return (
      await this.send<{ maxPerPoll: number; unknown: string[] }>("POST", "/__idc/poll/config", body, CALL_MS)
    ).body!;
  }

  /** Makes the mock sign a SET with its current key and deliver it on the stream (push or poll). */
  async emit(o: {
    event: SetEvent;
    subject?: Record<string, unknown>;
    claims?: Record<string, unknown>;
    streamId?: string;
  }): Promise<EmitAnswer> {
    // A push to the Receiver takes up to 5 s inside the mock.
    return (await this.send<EmitAnswer>("POST", "/__idc/emit", o, CALL_MS + SLACK_MS)).body!;
  }

  private send<T>(
    method: "GET" | "POST",
    path: string,
    body: unknown,
    timeoutMs: number,
    allowed: number[] = [],
  ): Promise<{ status: number; body?: T }> {
    const mock = { name: "mock transmitter", url: this.url, token: this.controlToken };
    return controlCall<T>(mock, method, path, body, timeoutMs, allowed);
  }
}
