import { createHash, timingSafeEqual } from "node:crypto";

/** A Receiver this Transmitter knows: who it is, the aud its SETs carry, and its token's digest. */
export interface ReceiverAccount {
  readonly id: string;
  /** SSF 1.0 §8.1.1: the aud of every stream of this Receiver (its identifier here). */
  readonly aud: string;
}

// Stryker disable next-line StringLiteral: equivalent: Node hashes a string as UTF-8 when no encoding is named
const digest = (token: string): Buffer => createHash("sha256").update(token, "utf8").digest();

/**
 * The Receivers allowed to manage streams, each with its Bearer token (SSF 1.0 §8: the
 * authorization associates a Receiver with its streams and aud). Tokens are kept as digests and
 * compared in constant time.
 */
export class Receivers {
  private readonly accounts: { account: ReceiverAccount; digest: Buffer }[] = [];

  add(account: ReceiverAccount, token: string): void {
    this.accounts.push({ account, digest: digest(token) });
  }

  /** The Receiver whose token this is, or undefined. */
  byToken(token: string): ReceiverAccount | undefined {
    const d = digest(token);
    return this.accounts.find((a) => timingSafeEqual(a.digest, d))?.account;
  }

  /** Every Receiver, in the order they were added (the first is the default Receiver). */
  all(): ReceiverAccount[] {
    return this.accounts.map((a) => a.account);
  }
}
