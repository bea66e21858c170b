/**
 * JSON from a target is parsed only within bounds: nesting depth and the number of values.
 * A body past them is not read as JSON at all (a finding: no protocol message of the five
 * documents nests 128 deep or holds 100,000 values in one response), so a body nested 100,000
 * deep or holding 1,000,000 keys costs one linear scan, not a stack overflow or 100 MB of heap.
 */
export const JSON_MAX_DEPTH = 128;
export const JSON_MAX_VALUES = 100_000;

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

/** Why `text` is past the bounds, or `undefined` when it is within them (it may still be invalid JSON). */
export function jsonBeyondBounds(
  text: string,
  maxDepth = JSON_MAX_DEPTH,
  maxValues = JSON_MAX_VALUES,
): string | undefined {
  let depth = 0;
  // Values are counted by their separators and openers: a cheap upper bound of the count.
  let values = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return `JSON nested deeper than ${maxDepth} levels`;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c && ++values > maxValues) return `JSON with more than ${maxValues} values`;
  }
  return undefined;
}

/** Parses a target's JSON within the bounds; never throws. */
export function parseJsonBounded(text: string): JsonParse {
  if (text.length === 0) return { ok: false, error: "empty body" };
  const beyond = jsonBeyondBounds(text);
  if (beyond !== undefined) return { ok: false, error: `not read: ${beyond} (the harness's bound)` };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: `not JSON: ${(e as Error).message}` };
  }
}
