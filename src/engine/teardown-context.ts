import { RecordingClient, type ClientOptions } from "../http/client.js";
import type { CheckContext } from "./check.js";

/**
 * A check context for a suite's teardown (the end-of-run clean-up sweep), so it can reuse the
 * suite's client code: requests go through a recording client with the run's limits; notes are
 * collected for the report's clean-up section; a skip throws its reason. It decides nothing.
 */
export function teardownContext<P>(o: {
  profile: P;
  runId: string;
  client: ClientOptions;
  provided?: Record<string, unknown>;
  /** The clean-up's share of the run: requests in flight are aborted when it is spent. */
  signal?: AbortSignal;
}): { ctx: CheckContext<P>; notes: string[] } {
  const notes: string[] = [];
  const stop = o.signal ?? new AbortController().signal;
  const ctx: CheckContext<P> = {
    http: new RecordingClient(o.client, stop),
    profile: o.profile,
    seed: 0,
    runId: o.runId,
    provided: o.provided ?? {},
    signal: stop,
    check: () => true,
    require: () => undefined,
    json: <T>(_id: string, res: { json: unknown }) => res.json as T,
    skip: (reason: string): never => {
      throw new Error(reason);
    },
    skipOnly: () => undefined,
    partly: () => undefined,
    each: () => Promise.resolve(true),
    complete: () => undefined,
    note: (t: string) => void notes.push(t),
    setup: <T>(_key: string, step: () => Promise<T>) => step(),
    secret: () => undefined,
  };
  return { ctx, notes };
}

/**
 * The clean-up note for what a sweep did not delete: how many of how many, why, and the first
 * few names (a list of thousands would bury the report).
 */
export function notDeleted(kind: string, remaining: readonly string[], total: number, why: string): string {
  const shown = remaining.slice(0, 10).join(", ");
  const more = remaining.length > 10 ? `, and ${remaining.length - 10} more` : "";
  return `${remaining.length} of ${total} ${kind} of this run were not deleted (${why}): ${shown}${more}`;
}
