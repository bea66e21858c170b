/**
 * The one way a finding quotes a value a target sent: bounded in length, in depth and in the
 * members it walks, never recursive on the target's nesting, and never throwing (a value nested
 * 100,000 deep, a cycle, a BigInt or a getter that throws all come out as text). Honesty rule 5:
 * target garbage gives a finding, never a harness fault.
 */

/** Characters of a quote, unless the caller asks for fewer or more. */
export const QUOTE_MAX = 200;
/** Levels of nesting shown before `…`. */
const QUOTE_DEPTH = 6;

type Frame = { kind: "text"; text: string } | { kind: "value"; value: unknown; depth: number };

/**
 * Renders `v` as compact JSON-like text of at most `max` characters (a cut ends in `…`).
 * `undefined` reads `absent`, so `quote(body.member)` says what a reader needs.
 */
export function quote(v: unknown, max = QUOTE_MAX): string {
  if (v === undefined) return "absent";
  let out = "";
  const stack: Frame[] = [{ kind: "value", value: v, depth: 0 }];
  const seen = new Set<object>();
  // Work stays bounded however large the value: it stops as soon as the output is full.
  while (stack.length > 0 && out.length <= max) {
    const f = stack.pop()!;
    if (f.kind === "text") {
      out += f.text;
      continue;
    }
    out += scalar(f.value) ?? "";
    const x = f.value;
    if (x === null || typeof x !== "object") continue;
    if (seen.has(x)) {
      out += "[cycle]";
      continue;
    }
    const isArray = Array.isArray(x);
    if (f.depth >= QUOTE_DEPTH) {
      out += isArray ? "[…]" : "{…}";
      continue;
    }
    seen.add(x);
    const frames: Frame[] = [{ kind: "text", text: isArray ? "[" : "{" }];
    let n = 0;
    // Members are read one by one and no further than the quote can show: a value with a
    // million members costs a few hundred reads, not a copy of all of them.
    const add = (k: string | undefined, val: unknown): boolean => {
      if (n > 0) frames.push({ kind: "text", text: "," });
      if (n * 2 > max) {
        frames.push({ kind: "text", text: "…" });
        return false;
      }
      if (k !== undefined) frames.push({ kind: "text", text: `${JSON.stringify(k)}:` });
      frames.push({ kind: "value", value: val, depth: f.depth + 1 });
      n++;
      return true;
    };
    try {
      if (isArray) {
        const arr = x as unknown[];
        for (let i = 0; i < arr.length && add(undefined, arr[i]); i++);
      } else {
        for (const k in x) {
          if (Object.prototype.hasOwnProperty.call(x, k) && !add(k, (x as Record<string, unknown>)[k])) break;
        }
      }
    } catch {
      frames.push({ kind: "text", text: "[unreadable]" });
    }
    frames.push({ kind: "text", text: isArray ? "]" : "}" });
    for (let i = frames.length - 1; i >= 0; i--) stack.push(frames[i]!);
  }
  return out.length > max || stack.length > 0 ? `${out.slice(0, Math.max(0, max - 1))}…` : out;
}

function scalar(x: unknown): string | undefined {
  switch (typeof x) {
    case "string":
      // A long string is cut before it is escaped, so a 50 MB string costs nothing.
      return JSON.stringify(x.length > 4096 ? x.slice(0, 4096) : x);
    case "number":
    case "boolean":
      return String(x);
    case "bigint":
      return `${x}n`;
    case "undefined":
      return "undefined";
    case "object":
      return x === null ? "null" : undefined;
    default:
      return `[${typeof x}]`;
  }
}
