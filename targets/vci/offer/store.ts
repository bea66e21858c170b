import type { ConfigurationId } from "../configurations.js";
import { LIMITS } from "../limits.js";
import { randomId } from "../random.js";
import { ExpiringStore } from "../store.js";

/** The pre-authorized grant of an offer (specs/000 Resources: Grant parameters). */
export interface PreAuthorizedGrant {
  readonly code: string;
  /** The Transaction Code the End-User gets over another channel, when one is required. */
  readonly txCode: string | undefined;
  /** Wrong tx_code attempts so far. */
  txAttempts: number;
}

/** One Credential Offer and what the issuer remembers about it. */
export interface Offer {
  /** Random id of its by-reference URI. */
  readonly id: string;
  /** The Credential Offer object as served (faults may have altered it). */
  readonly object: Record<string, unknown>;
  /** The real configurations offered (what a token from this offer authorizes). */
  readonly configurationIds: readonly ConfigurationId[];
  /** Whether credentials of this offer's grant are deferred. */
  readonly deferred: boolean;
  readonly preAuthorized: PreAuthorizedGrant | undefined;
  readonly issuerState: string | undefined;
}

/** How long a pre-authorized code is remembered as made, after it stops being redeemable. */
// Stryker disable next-line all: read only under the fault "code-unchecked"
const ISSUED_CODE_MEMORY_SECONDS = 24 * 3600;

/**
 * The live offers, by id, by pre-authorized code and by issuer_state. Codes are short
 * lived (LIMITS.offerLifetimeSeconds) and single use (specs/000 States 1).
 */
export class OfferStore {
  private readonly byId = new ExpiringStore<Offer>();
  private readonly byCode = new ExpiringStore<Offer>();
  private readonly byIssuerState = new ExpiringStore<Offer>();
  /** tx_codes of live offers, for the `tx-code-any-offer` fault's lookup. */
  private readonly txCodes = new ExpiringStore<true>();
  /** Every pre-authorized code made lately, used or not (the `code-unchecked` fault accepts only others). */
  private readonly issuedCodes = new ExpiringStore<true>();
  /** The latest offer (served at the one fixed URI of the `offer-cacheable` fault). */
  latest: Offer | undefined;

  add(offer: Offer): void {
    const ttl = LIMITS.offerLifetimeSeconds;
    this.byId.set(offer.id, offer, ttl);
    if (offer.preAuthorized) {
      this.byCode.set(offer.preAuthorized.code, offer, ttl);
      // Stryker disable next-line all: read only under the fault "code-unchecked"
      this.issuedCodes.set(offer.preAuthorized.code, true, ISSUED_CODE_MEMORY_SECONDS);
      // Stryker disable next-line all: read only under the fault "tx-code-any-offer"
      if (offer.preAuthorized.txCode !== undefined) this.txCodes.set(offer.preAuthorized.txCode, true, ttl);
    }
    // Stryker disable next-line ConditionalExpression: an offer without issuer_state would be filed under the key undefined, which byState is never asked for (an Authorization Request without issuer_state looks up no offer)
    if (offer.issuerState !== undefined) this.byIssuerState.set(offer.issuerState, offer, ttl);
    this.latest = offer;
  }

  byReference(id: string): Offer | undefined {
    return this.byId.get(id);
  }

  /** The offer of a live, unused pre-authorized code. */
  byPreAuthorizedCode(code: string): Offer | undefined {
    return this.byCode.get(code);
  }

  /** Whether this issuer made `code` (live, used, withdrawn or expired), as far as it remembers. */
  // Stryker disable all: runs only under the fault "code-unchecked"
  wasIssued(code: string): boolean {
    return this.issuedCodes.get(code) !== undefined;
  }
  // Stryker restore all

  /** Withdraws a pre-authorized code: it was used, or guessed at too often. */
  withdrawCode(code: string): void {
    this.byCode.delete(code);
  }

  // Stryker disable all: reached only under the tx-code-any-offer fault
  /** Whether `txCode` is the tx_code of some live offer (the `tx-code-any-offer` fault). */
  isLiveTxCode(txCode: string): boolean {
    return this.txCodes.get(txCode) !== undefined;
  }
  // Stryker restore all

  byState(issuerState: string): Offer | undefined {
    return this.byIssuerState.get(issuerState);
  }
}

export const newOfferId = (): string => randomId(24);
