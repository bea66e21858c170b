import type { ClientOptions } from "../../src/http/client.js";
import { notDeleted, teardownContext } from "../../src/engine/teardown-context.js";
import type { CaepTransmitterProfile } from "./profile.js";
import { StreamClient, type CaepTransmitterProvided } from "./client.js";
import { dropStream, streams, type ReceiverId } from "./ledger.js";

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Deletes every stream of this run the Transmitter still holds (after a failed check or an
 * interrupt; issue 15 item 4): the streams the run's ledger names (each check notes what it
 * creates), and those a receiver's list shows with the run's id in their description (a
 * creation whose answer was lost). Returns what could not be deleted, for the report.
 */
export async function sweep(
  profile: CaepTransmitterProfile,
  runId: string,
  client: ClientOptions,
  provided: CaepTransmitterProvided,
  signal?: AbortSignal,
): Promise<string[]> {
  const { ctx, notes } = teardownContext({
    profile,
    runId,
    client,
    provided: { ...provided },
    ...(signal ? { signal } : {}),
  });
  const leftovers: string[] = [];
  const receivers: ReceiverId[] = profile.secondReceiverToken !== undefined ? ["first", "second"] : ["first"];
  const ledger = await streams(provided.runDir);
  let pending: string[] = [];
  let total = 0;
  try {
    for (const r of receivers) {
      const k = new StreamClient(ctx, r);
      const ids = new Set(ledger.filter((e) => e.receiver === r).map((e) => e.streamId));
      // A stream the ledger missed: found by its description in the receiver's list.
      const listed = await k.list({ label: "sweep: list streams" }).catch(() => undefined);
      if (listed?.status === 200 && Array.isArray(listed.json))
        for (const s of listed.json.slice(0, 1000))
          if (isObject(s) && typeof s.stream_id === "string" && String(s.description ?? "").includes(runId))
            ids.add(s.stream_id);
      pending = [...ids];
      total += pending.length;
      while (pending.length > 0) {
        const id = pending[0]!;
        const res = await k.remove(id, { label: "sweep: delete stream" });
        // 404: gone already (a check deleted it, or the Transmitter expired it).
        if (res.status === 204 || res.status === 200 || res.status === 404)
          await dropStream(provided.runDir, id);
        else
          leftovers.push(
            `stream ${id} (${r === "first" ? "receiverToken" : "secondReceiverToken"}): delete answered ${res.status}`,
          );
        pending.shift();
      }
    }
  } catch (err) {
    const why = signal?.aborted
      ? "the clean-up's share of options.timeouts.runMs ran out"
      : `the clean-up sweep stopped: ${(err as Error).message}`;
    const rest = [...new Set([...pending, ...(await streams(provided.runDir)).map((e) => e.streamId)])];
    leftovers.push(
      rest.length > 0
        ? notDeleted("streams", rest, Math.max(total, rest.length), why)
        : `${why}; streams described "idconform ${runId} ..." may remain`,
    );
  }
  return [...leftovers, ...notes];
}
