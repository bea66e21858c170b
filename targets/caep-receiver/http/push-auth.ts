import { timingSafeEqual } from "node:crypto";

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The Authorization values the push endpoint accepts (RFC 8935 §2, SSF 1.0 §8.1.1:
 * `authorization_header`): the one the Receiver gave the Transmitter at stream creation, and a
 * static one for a stream configured by hand. Compared in constant time.
 */
export class PushAuthorizations {
  private readonly values = new Set<string>();

  add(value: string): void {
    this.values.add(value);
  }

  allows(header: string | undefined): boolean {
    if (header === undefined) return false;
    return [...this.values].some((v) => same(v, header));
  }
}
