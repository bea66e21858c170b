import { parseArgs, type ParseArgsConfig } from "node:util";
import { HarnessError } from "../engine/errors.js";

/** parseArgs with the harness's usage error (exit 2) instead of a TypeError. */
export function parse<T extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  options: T,
  usage: string,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new HarnessError("IDC_USAGE", `${(err as Error).message}\n\nusage: ${usage}`);
  }
}

export function intArg(name: string, v: string | undefined, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  // Digits only: Number() would also take "1e3", "0x10" or " 5 ".
  const n = /^\d{1,16}$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new HarnessError(
      "IDC_USAGE",
      `--${name}: expected a whole number from ${min} to ${max}, got "${v}"`,
    );
  return n;
}

export function shardArg(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(v);
  if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
    throw new HarnessError("IDC_USAGE", `--shard: expected i/n with 1 <= i <= n, got "${v}"`);
  return v;
}
