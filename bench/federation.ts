// Federation scale for `npm run bench` (issue 13): the extended list of a reference target
// started with 10,000 and 100,000 members, walked at its default page size. The target runs in a
// child process (`idconform target federation --members N`) and the walk in another
// (bench/federation-walk.ts), so the harness's peak RSS is the walk's process alone.
import { spawn, type ChildProcess } from "node:child_process";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const MB = 1024 * 1024;

export interface WalkFigures {
  readonly members: number;
  readonly ms: number;
  readonly pages: number;
  readonly entries: number;
  readonly stopped: string | null;
  /** Exchanges the walk's evidence kept (the first and last page, and those a finding cites). */
  readonly evidence: number;
  readonly peakBytes: number;
  /** How long the target took to start with that many members (its own process, not the walk). */
  readonly targetStartMs: number;
}

/** Starts `idconform target federation --members n` and waits for the environment it prints. */
async function startTarget(
  members: number,
): Promise<{ env: Record<string, string>; ms: number; child: ChildProcess }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [join(ROOT, "bin", "idconform.js"), "target", "federation", "--members", String(members)],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  const env: Record<string, string> = {};
  let out = "";
  await new Promise<void>((ok, fail) => {
    child.once("exit", (code) => fail(new Error(`the federation target exited ${code} before it listened`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      for (const m of out.matchAll(/^ {2}export (\w+)='([^']*)'$/gm)) env[m[1]!] = m[2]!;
      if (env.IDC_DEMO_FEDERATION_COLLECTION_UPPER_LIMIT !== undefined) ok();
    });
  });
  child.removeAllListeners("exit");
  return { env, ms: performance.now() - started, child };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGINT");
  await exited;
}

/** One walk of the extended list of a target with `members` generated members. */
export async function walkFederation(members: number): Promise<WalkFigures> {
  const target = await startTarget(members);
  try {
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "bench", "federation-walk.ts")], {
      cwd: ROOT,
      env: { ...process.env, ...target.env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((r) => child.on("close", r));
    if (code !== 0) throw new Error(`the walk of ${members} members exited ${code}`);
    const line = out.trim().split("\n").pop() ?? "{}";
    const figures = JSON.parse(line) as Omit<WalkFigures, "members" | "targetStartMs">;
    return { members, targetStartMs: target.ms, ...figures };
  } finally {
    await stop(target.child);
  }
}

type Row = [string, string, string, boolean];

/** The bench rows: the 100,000-member figures against their bounds, the 10,000-member ones beside them. */
export async function federationRows(): Promise<Row[]> {
  const small = await walkFederation(10_000);
  const large = await walkFederation(100_000);
  const ended = (w: WalkFigures): boolean => w.stopped === null && w.entries >= w.members && w.evidence <= 3;
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const mb = (b: number): string => `${(b / MB).toFixed(0)} MB`;
  return [
    [
      `federation: extended list of 100,000 members walked at its default page size (${large.pages} pages, ${large.evidence} in evidence${large.stopped ? `, ${large.stopped}` : ""}; 10,000 members: ${s(small.ms)}, ${small.pages} pages)`,
      s(large.ms),
      "< 20 s",
      large.ms < 20_000 && ended(large) && ended(small),
    ],
    [
      `  peak RSS of the walking harness process (10,000 members: ${mb(small.peakBytes)})`,
      mb(large.peakBytes),
      "< 300 MB",
      large.peakBytes < 300 * MB,
    ],
    [
      `  the target's start with 100,000 members, its own process (10,000: ${s(small.targetStartMs)})`,
      s(large.targetStartMs),
      "(info)",
      true,
    ],
  ];
}
