import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A setup problem one check found, so that the checks after it stop without asking again. */
export interface SetupRecord {
  readonly path: string;
  readonly problem: string;
  readonly check: string;
}

/**
 * What the run has learnt about the profile's setup, shared by every check of the run: the
 * checks of one run go through several worker processes, so the shared log is a directory
 * the run owns (`RunProvided.setupDir`), one file per step key; in one process, a map.
 */
export interface SetupLog {
  get(key: string): SetupRecord | undefined;
  put(key: string, record: SetupRecord): void;
}

export function memorySetupLog(): SetupLog {
  const m = new Map<string, SetupRecord>();
  return { get: (k) => m.get(k), put: (k, r) => void (m.has(k) || m.set(k, r)) };
}

const fileOf = (dir: string, key: string): string =>
  join(dir, `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.json`);

export function fileSetupLog(dir: string): SetupLog {
  return {
    get(key) {
      try {
        const r = JSON.parse(readFileSync(fileOf(dir, key), "utf8")) as SetupRecord;
        return typeof r.path === "string" && typeof r.problem === "string" ? r : undefined;
      } catch {
        return undefined;
      }
    },
    put(key, record) {
      try {
        mkdirSync(dir, { recursive: true });
        // The first writer wins: `wx` fails if another worker wrote it meanwhile.
        writeFileSync(fileOf(dir, key), JSON.stringify(record), { flag: "wx" });
      } catch {
        // Already written, or the directory is gone (the run is ending): the next check asks again.
      }
    },
  };
}
