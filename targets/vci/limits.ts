/**
 * Every bound and lifetime of the credential-issuance reference target (design: "treat
 * everything as hostile", applied to the target too). specs/000 fixes only the batch size
 * floor, the tx_code description length and the five-minute bearer token bound; the rest
 * are this target's own choices.
 */
export const LIMITS = {
  /** Credential and deferred request bodies above this answer 413. */
  maxCredentialBodyBytes: 256 * 1024,
  /** Token, authorization, hook and notification bodies above this answer 413. */
  maxSmallBodyBytes: 16 * 1024,
  /** Live entries of each in-memory store (offers, codes, nonces, tokens, ...); the oldest go first. */
  maxEntries: 10_000,
  /** Lifetime of an offer and its pre-authorized code, in seconds. */
  offerLifetimeSeconds: 300,
  /** Wrong tx_code attempts before a pre-authorized code is withdrawn. */
  maxTxCodeAttempts: 5,
  /** Lifetime of an authorization code, and of a pending login/consent, in seconds. */
  authorizationCodeLifetimeSeconds: 120,
  pendingAuthorizationLifetimeSeconds: 600,
  /** Bearer access token lifetime (specs/000 Authentication 4: at most 5 minutes), and the long-lived fault's. */
  accessTokenLifetimeSeconds: 300,
  longAccessTokenLifetimeSeconds: 3600,
  /** c_nonce lifetime in seconds (the issuer decides, specs/000 Limits). */
  nonceLifetimeSeconds: 300,
  /** Accepted proof iat window around now, in seconds: this far in the past, this far ahead. */
  proofIatPastSeconds: 300,
  proofIatFutureSeconds: 60,
  /** batch_credential_issuance.batch_size advertised and enforced. */
  batchSize: 3,
  /** Most proofs ever looked at in one request, even when the batch size is not enforced. */
  maxProofs: 16,
  /** Longest proof JWT, identifier or other string member accepted, in characters. */
  maxProofChars: 16 * 1024,
  maxIdentifierChars: 512,
  /** Deferred transactions are issued on this poll (1 = the first deferred request). */
  deferredReadyOnPoll: 2,
  /** Seconds a wallet is told to wait between deferred polls. */
  deferredIntervalSeconds: 1,
  /** Lifetime of issued credentials, in seconds. */
  credentialLifetimeSeconds: 365 * 24 * 3600,
  /** Delivering an offer to a Wallet Credential Offer Endpoint, in milliseconds. */
  offerDeliveryTimeoutMs: 5_000,
} as const;
