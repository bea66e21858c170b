import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * What the checks of a run leave for the whole run to see, in a directory the suite's setup
 * owns (checks run in several workers; this is what they share): every stream a check created,
 * so the end-of-run clean-up deletes what a failed or interrupted check left (issue 15 item 4),
 * and every SET a check polled, so the every-SET pass judges polled SETs beside pushed ones (the
 * mock Receiver keeps only what was pushed). Stream ids and SETs only: never a token.
 */

/** Which of the profile's receivers a stream belongs to (its token). */
export type ReceiverId = "first" | "second";

export interface StreamEntry {
  readonly streamId: string;
  readonly receiver: ReceiverId;
  /** The check that created it (for the clean-up note). */
  readonly check: string;
}

/** One polled SET as the every-SET pass reads it back. */
export interface PolledEntry {
  readonly token: string;
  readonly streamId: string;
  /** The aud of the stream it was polled from, as its configuration said. */
  readonly audience?: unknown;
  readonly check: string;
  /** When it was received (ms since the epoch). */
  readonly at: number;
}

/** At most this many polled SETs are kept for the every-SET pass (the rest are counted). */
export const MAX_POLLED = 5000;
/** One SET is kept up to this size; a larger one is kept as its start (judged malformed). */
const MAX_TOKEN = 64 * 1024;

const streamFile = (dir: string, id: string): string =>
  join(dir, "streams", `${createHash("sha256").update(id).digest("hex").slice(0, 32)}.json`);

export async function makeLedger(dir: string): Promise<void> {
  await mkdir(join(dir, "streams"), { recursive: true });
  await mkdir(join(dir, "polled"), { recursive: true });
  await mkdir(join(dir, "slots"), { recursive: true });
}

/** Which stream a mock Receiver slot belongs to, and that stream's aud (kept after the stream is deleted). */
export interface SlotEntry {
  readonly slot: string;
  readonly streamId: string;
  readonly audience?: unknown;
}

const slotFile = (dir: string, slot: string): string =>
  join(dir, "slots", `${createHash("sha256").update(slot).digest("hex").slice(0, 32)}.json`);

export async function addSlot(dir: string, e: SlotEntry): Promise<void> {
  await mkdir(join(dir, "slots"), { recursive: true });
  await writeFile(slotFile(dir, e.slot), JSON.stringify(e));
}

/** Every slot whose stream was created, by slot id. */
export async function slots(dir: string): Promise<Map<string, SlotEntry>> {
  const names = await readdir(join(dir, "slots")).catch(() => [] as string[]);
  const out = new Map<string, SlotEntry>();
  for (const n of names.slice(0, 10_000)) {
    try {
      const e = JSON.parse(await readFile(join(dir, "slots", n), "utf8")) as SlotEntry;
      out.set(e.slot, e);
    } catch {
      // half written: that slot's SETs are judged without the stream's aud
    }
  }
  return out;
}

/** Notes a stream the run created (before anything else can fail). */
export async function addStream(dir: string, e: StreamEntry): Promise<void> {
  await mkdir(join(dir, "streams"), { recursive: true });
  await writeFile(streamFile(dir, e.streamId), JSON.stringify(e));
}

/** Forgets a stream that is gone (deleted, or unknown to the Transmitter). */
export async function dropStream(dir: string, streamId: string): Promise<void> {
  await rm(streamFile(dir, streamId), { force: true });
}

/** Every stream the run created and did not see deleted. */
export async function streams(dir: string): Promise<StreamEntry[]> {
  const names = await readdir(join(dir, "streams")).catch(() => [] as string[]);
  const out: StreamEntry[] = [];
  for (const n of names) {
    try {
      out.push(JSON.parse(await readFile(join(dir, "streams", n), "utf8")) as StreamEntry);
    } catch {
      // written half when the worker died: its stream is found by the list sweep, if at all
    }
  }
  return out;
}

/** Records SETs one poll answer carried, in one file (written whole by the worker that polled). */
export async function addPolled(dir: string, entries: readonly PolledEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await mkdir(join(dir, "polled"), { recursive: true });
  const kept = entries.map((e) => ({ ...e, token: e.token.slice(0, MAX_TOKEN) }));
  const name = `${Date.now()}-${randomBytes(6).toString("hex")}.json`;
  await writeFile(join(dir, "polled", name), JSON.stringify(kept));
}

/** Every polled SET of the run, oldest first, at most MAX_POLLED, and how many there were. */
export async function polled(dir: string): Promise<{ entries: PolledEntry[]; total: number }> {
  const names = (await readdir(join(dir, "polled")).catch(() => [] as string[])).sort();
  const entries: PolledEntry[] = [];
  let total = 0;
  for (const n of names) {
    let batch: PolledEntry[];
    try {
      batch = JSON.parse(await readFile(join(dir, "polled", n), "utf8")) as PolledEntry[];
    } catch {
      continue;
    }
    total += batch.length;
    for (const e of batch) if (entries.length < MAX_POLLED) entries.push(e);
  }
  entries.sort((a, b) => a.at - b.at);
  return { entries, total };
}
