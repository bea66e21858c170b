import { parseJsonBounded } from "../http/json-bounds.js";

/**
 * Finds and decodes compact JWS / JWE values in evidence text, for report.html. The text is
 * already redacted and hostile (a target wrote it): everything here is bounded, never throws
 * and never verifies anything (a decoded token is evidence to read, not a trusted one).
 */

/** Longest token decoded; a longer one is named but not decoded. */
export const MAX_TOKEN_CHARS = 32 * 1024;
/** Characters of a decoded part (pretty JSON or text) kept in the report. */
export const MAX_DECODED_CHARS = 4 * 1024;

export interface DecodedToken {
  readonly kind: "JWS" | "JWE";
  /** The raw compact value as found (already redacted). */
  readonly raw: string;
  /** The protected header, when it is a JSON object. */
  readonly header?: Record<string, unknown>;
  /** The payload of a JWS when it is a JSON object (claims); never set for a JWE. */
  readonly claims?: Record<string, unknown>;
  /** A JWS payload that is not a JSON object: its text (capped) or why it is not shown. */
  readonly payloadText?: string;
  /** The placeholder standing for the signature, when the redactor replaced it (`NAME`). */
  readonly signatureRedacted?: string;
  readonly signatureBytes?: number;
  /** Why the value could not be decoded (it is still shown raw). */
  readonly problem?: string;
}

// A compact serialisation starts with a base64url JSON object (`eyJ` is `{"`), preceded by no
// base64url character: the lookbehind keeps the scan linear over long base64 runs.
const B64 = "[A-Za-z0-9_-]";
const PLACEHOLDER = "\\$\\{[A-Z0-9_]+\\}";
const COMPACT = new RegExp(
  `(?<![A-Za-z0-9_.-])eyJ${B64}*\\.${B64}*\\.(?:${PLACEHOLDER}|${B64}*)(?:\\.${B64}*\\.${B64}*)?(?![A-Za-z0-9_-]|\\.[A-Za-z0-9_-])`,
  "g",
);

/** The compact JWS / JWE values in a text, at most `max` of them (and how many more there were). */
export function findCompact(text: string, max: number): { found: string[]; more: number } {
  const found: string[] = [];
  let more = 0;
  COMPACT.lastIndex = 0;
  for (let m = COMPACT.exec(text); m !== null; m = COMPACT.exec(text)) {
    if (found.length < max) found.push(m[0]);
    else more++;
  }
  return { found, more };
}

/** Decodes one compact value (as `findCompact` returns it). */
export function decodeCompact(raw: string): DecodedToken {
  const parts = raw.split(".");
  const kind = parts.length === 5 ? "JWE" : "JWS";
  if (raw.length > MAX_TOKEN_CHARS)
    return {
      kind,
      raw,
      problem: `${raw.length} characters: longer than the ${MAX_TOKEN_CHARS} decoded here`,
    };
  const header = jsonObject(parts[0] ?? "");
  if (typeof header === "string") return { kind, raw, problem: `its header is ${header}` };
  if (typeof header.alg !== "string")
    return { kind, raw, header, problem: 'its header has no "alg": not a JOSE header' };
  if (kind === "JWE") return { kind, raw, header };
  const sig = parts[2] ?? "";
  const redacted = /^\$\{([A-Z0-9_]+)\}$/.exec(sig)?.[1];
  const signature = redacted
    ? { signatureRedacted: redacted }
    : { signatureBytes: Buffer.from(sig, "base64url").length };
  if ((parts[1] ?? "") === "")
    return { kind, raw, header, payloadText: "empty (a detached payload)", ...signature };
  const payload = jsonObject(parts[1] ?? "");
  if (typeof payload !== "string") return { kind, raw, header, claims: payload, ...signature };
  const text = utf8(parts[1] ?? "");
  return {
    kind,
    raw,
    header,
    payloadText:
      text === undefined
        ? `not JSON and not UTF-8 text (${Buffer.from(parts[1] ?? "", "base64url").length} bytes)`
        : `not a JSON object: ${capText(text)}`,
    ...signature,
  };
}

/** A base64url segment decoded to a JSON object, or why not. */
function jsonObject(seg: string): Record<string, unknown> | string {
  if (seg.length === 0) return "empty";
  const text = utf8(seg);
  if (text === undefined) return "not UTF-8 text";
  const parsed = parseJsonBounded(text);
  if (!parsed.ok) return parsed.error.startsWith("not read") ? parsed.error : "not JSON";
  const v = parsed.value;
  if (v === null || typeof v !== "object" || Array.isArray(v)) return "JSON but not an object";
  return v as Record<string, unknown>;
}

function utf8(seg: string): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(seg, "base64url"));
  } catch {
    return undefined;
  }
}

/** A text capped for the report, with a marker saying how much was cut. */
export function capText(s: string, max = MAX_DECODED_CHARS): string {
  return s.length > max ? `${s.slice(0, max)}\n… [${s.length - max} more characters not shown]` : s;
}
