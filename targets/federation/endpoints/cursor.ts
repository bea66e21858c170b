import { createHmac, timingSafeEqual } from "node:crypto";

const FORM = /^([A-Za-z0-9_-]{1,900})\.([A-Za-z0-9_-]{22})$/;

/**
 * Opaque `next`/`from` cursors (specs/001 Extended listing response: next, "format is the
 * implementer's choice"): `<key>.<mac>`, the key being the ordering key (the Entity
 * Identifier) of the first entry of the next page, base64url, and the mac an HMAC over the
 * list it belongs to and the key, under a key drawn at start. A cursor names a position in the
 * order, not an offset, so entries added or removed before it do not shift the rest of a walk,
 * and the server keeps no state per walk. One the target never issued is refused (404
 * page_not_found); one whose entry was removed since continues at the next remaining entry.
 */
export class Cursors {
  constructor(private readonly secret: Buffer) {}

  private mac(scope: string, key: string): Buffer {
    return createHmac("sha256", this.secret).update(`${scope}\n${key}`).digest().subarray(0, 16);
  }

  encode(scope: string, key: string): string {
    return `${Buffer.from(key).toString("base64url")}.${this.mac(scope, key).toString("base64url")}`;
  }

  /** The key of a cursor this target issued for `scope`, else undefined. */
  decode(scope: string, cursor: string): string | undefined {
    // FORM bounds a cursor (923 characters at most).
    const m = FORM.exec(cursor);
    if (!m) return undefined;
    const raw = Buffer.from(m[1] as string, "base64url");
    const given = Buffer.from(m[2] as string, "base64url");
    // Only the canonical spelling counts: a changed last character whose bits base64url decoding
    // drops would otherwise name the same page, and a tampered cursor must never give one.
    if (`${raw.toString("base64url")}.${given.toString("base64url")}` !== `${m[1]}.${m[2]}`) return undefined;
    const key = raw.toString();
    const want = this.mac(scope, key);
    // FORM fixes the mac at 22 base64url characters: 16 bytes, the length of every mac.
    return timingSafeEqual(given, want) ? key : undefined;
  }
}
