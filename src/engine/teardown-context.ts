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
}): { ctx: CheckContext<P>; notes: string[] } {
  const notes: string[] = [];
  const stop = new AbortController();
  const ctx: CheckContext<P> = {
    http: new RecordingClient(o.client, stop.signal),
    profile: o.profile,
    seed: 0,
    runId: o.runId,
    provided: o.provided ?? {},
    signal: stop.signal,
    check: () => true,
    require: () => undefined,
    json: <T>(_id: string, res: { json: unknown }) => res.json as T,
    skip: (reason: string): never => {
      throw new Error(reason);
    },
    skipOnly: () => undefined,
    note: (t: string) => void notes.push(t),
    secret: () => undefined,
  };
  return { ctx, notes };
}
