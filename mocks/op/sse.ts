import { parseJsonBounded } from "../../src/http/json-bounds.js";

/** One server-sent event (WHATWG HTML §9.2 event stream interpretation). */
export interface SseEvent {
  readonly id?: string;
  readonly event: string;
  readonly data: string;
}

/**
 * Parses an event stream's text into events, at most `max` of them (the target is hostile);
 * an event still being written when the text ends (no blank line yet) is left out.
 */
export function parseSse(text: string, max = 10_000): SseEvent[] {
  const out: SseEvent[] = [];
  let id: string | undefined;
  let event = "";
  let data: string[] = [];
  let any = false;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === "") {
      if (any)
        out.push({ ...(id !== undefined ? { id } : {}), event: event || "message", data: data.join("\n") });
      if (out.length >= max) break;
      id = undefined;
      event = "";
      data = [];
      any = false;
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") id = value;
    else if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else continue;
    any = true;
  }
  return out;
}

/** The event's data as a JSON object, or undefined. */
export function eventJson(e: SseEvent): Record<string, unknown> | undefined {
  // Within the bounds of any JSON a target sends, so no reading of a member recurses too deep.
  const p = parseJsonBounded(e.data);
  const v = p.ok ? p.value : undefined;
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/**
 * True once a final event (command-complete or error, specs/002 area A Stream events) has
 * fully arrived: a reader can then drop a connection the server keeps open.
 */
export function streamEnded(text: string): boolean {
  if (!text.includes("command-complete") && !text.includes("error")) return false;
  return parseSse(text).some((e) => e.event === "command-complete" || e.event === "error");
}
