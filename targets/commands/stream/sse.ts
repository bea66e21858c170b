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
export function offersGzip(acceptEncoding: string | undefined): boolean {
  if (acceptEncoding === undefined) return false;
  return acceptEncoding.split(",").some((item) => {
    const [name = "", ...params] = item.split(";").map((s) => s.trim().toLowerCase());
    if (name !== "gzip" && name !== "x-gzip") return false;
    const q = params.find((p) => p.startsWith("q="));
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
    this.out.on("error", () => undefined);
    this.body = Readable.toWeb(this.out) as unknown as ReadableStream<Uint8Array>;
  }

  get gone(): boolean {
    return this.out.destroyed;
  }

  /** Writes one event; false when the client is gone. */
  async write(event: SseEvent): Promise<boolean> {
    if (this.gone) return false;
    const fits = this.out.write(formatEvent(event));
    if (this.gzip) {
      const gz = this.out as ReturnType<typeof createGzip>;
      await new Promise<void>((resolve) => gz.flush(constants.Z_SYNC_FLUSH, () => resolve()));
    }
    if (!fits && !this.gone) await Promise.race([once(this.out, "drain"), once(this.out, "close")]);
    return !this.gone;
  }

  end(): void {
    if (!this.gone) this.out.end();
  }
}
