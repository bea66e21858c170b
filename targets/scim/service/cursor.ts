import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { LIMITS } from "../limits.js";
import { badRequest } from "./scim-error.js";

const FORM = /^([0-9a-z]{1,12})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{22})$/;

/**
 * Pagination cursors (RFC 9865): opaque to clients, `<after>.<issued>.<mac>` where
 * `after` is the creation number of the last resource listed (base 36), `issued` the
 * issue time in seconds (base 36), and `mac` an HMAC over both and the resource type,
 * under a key drawn at start. A cursor names a position in creation order, not an
 * offset, so it stays valid while resources are added or deleted, and the server keeps
 * no state for it. A forged or foreign cursor is 400 invalidCursor; one older than
 * `cursorTimeoutSeconds` is 400 expiredCursor.
 */
export class CursorCodec {
  constructor(
    private readonly key: Buffer = randomBytes(32),
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  private mac(kind: string, after: string, issued: string): Buffer {
    return createHmac("sha256", this.key).update(`${kind}|${after}|${issued}`).digest().subarray(0, 16);
  }

  encode(kind: string, afterSeq: number): string {
    const after = afterSeq.toString(36);
    const issued = this.nowSeconds().toString(36);
    return `${after}.${issued}.${this.mac(kind, after, issued).toString("base64url")}`;
  }

  /** The creation number a cursor continues after. */
  decode(kind: string, cursor: string): number {
    const m = FORM.exec(cursor);
    const [, after = "", issued = "", mac = ""] = m ?? [];
    const given = Buffer.from(mac, "base64url");
    const want = this.mac(kind, after, issued);
    if (m === null || given.length !== want.length || !timingSafeEqual(given, want)) {
      throw badRequest("invalidCursor", "the cursor is not one this service provider issued");
    }
    if (this.nowSeconds() - parseInt(issued, 36) > LIMITS.cursorTimeoutSeconds) {
      throw badRequest("expiredCursor", "the cursor has expired; start again from the first page");
    }
    return parseInt(after, 36);
  }
}
