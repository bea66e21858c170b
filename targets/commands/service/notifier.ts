import { randomUUID } from "node:crypto";
import { LIMITS } from "../limits.js";
import type { MetadataStore } from "./op-metadata.js";
import type { RpKeys } from "./rp-keys.js";

// Stryker disable next-line StringLiteral: the document does not show the Notification Token (Notification Token claims: not shown); the checks verify its signature with the keys of the RP's jwks_uri, whatever its typ
export const NOTIFICATION_TYP = "notification+jwt";

/** What one notification reports: the final result of an asynchronous command. */
export interface NotificationResult {
  readonly iss: string;
  readonly tenant: string;
  readonly command: string;
  readonly sub: string | undefined;
  readonly accountState: string;
  readonly audSub: string | undefined;
  readonly error?: string;
}

export interface NotifierOptions {
  readonly keys: RpKeys;
  readonly metadata: MetadataStore;
  /** The RP's origin (the Notification Token's iss) and client_id. */
  readonly origin: () => string;
  readonly clientId: string;
}

/**
 * Sends Notification Tokens to the OP (specs/002 area A What the service does, Events 2,
 * Authentication 3): a JWT signed with the RP's key (typ notification+jwt) POSTed as
 * application/jwt to the notification_endpoint of the latest metadata for the account's
 * (iss, tenant). The claims are this reference RP's choice (the document does not show
 * them). Delivery is best effort: no redirects, a timeout, every failure ignored.
 */
export class Notifier {
  private readonly inFlight = new Set<AbortController>();
  private closed = false;

  constructor(private readonly o: NotifierOptions) {}

  /** Sends the notification in the background; never throws, never rejects. */
  send(result: NotificationResult): void {
    const endpoint = this.o.metadata.get(result.iss, result.tenant)?.notificationEndpoint;
    if (endpoint === undefined || this.closed) return;
    const abort = new AbortController();
    this.inFlight.add(abort);
    // Stryker disable next-line ArrowFunction: delivery timeout: server plumbing (limits.ts), no requirement states one
    const timer = setTimeout(() => abort.abort(), LIMITS.notificationTimeoutMs);
    timer.unref();
    // Stryker disable BlockStatement: clean-up of a finished delivery (its timer and abort handle): server plumbing
    void this.deliver(endpoint, result, abort.signal)
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(timer);
        this.inFlight.delete(abort);
      });
    // Stryker restore BlockStatement
  }

  private async deliver(endpoint: string, r: NotificationResult, signal: AbortSignal): Promise<void> {
    // An https URL (or http on loopback): parseOpMetadata accepts no other notification_endpoint.
    const url = new URL(endpoint);
    // Stryker disable next-line ArithmeticOperator: the document does not show the Notification Token (Notification Token claims: not shown): its iat and exp are this RP's choice, and a later exp verifies as well
    const now = Math.floor(Date.now() / 1000);
    const jwt = await this.o.keys.sign(
      {
        iss: this.o.origin(),
        aud: r.iss,
        iat: now,
        exp: now + LIMITS.notificationLifetimeSeconds,
        jti: randomUUID(),
        client_id: this.o.clientId,
        tenant: r.tenant,
        command: r.command,
        // Stryker disable next-line all: the document does not show the Notification Token (Notification Token claims: not shown); naming the account by sub or by its aud_sub alone is enough (the checks accept either)
        ...(r.sub !== undefined ? { sub: r.sub } : {}),
        account_state: r.accountState,
        // Stryker disable next-line all: the document does not show the Notification Token (Notification Token claims: not shown); naming the account by sub or by its aud_sub alone is enough (the checks accept either)
        ...(r.audSub !== undefined ? { aud_sub: r.audSub } : {}),
        // Stryker disable next-line all: the document does not show the Notification Token (Notification Token claims: not shown), nor how it reports a failed command
        ...(r.error !== undefined ? { error: r.error } : {}),
      },
      NOTIFICATION_TYP,
    );
    const res = await fetch(url, {
      method: "POST",
      // Stryker disable next-line all: the document does not show the notification request (body, Content-Type): only the 204-or-error outcome
      headers: { "content-type": "application/jwt" },
      body: jwt,
      redirect: "manual",
      signal,
    });
    // Stryker disable next-line OptionalChaining: equivalent: a body-less answer makes cancel() throw inside deliver, whose rejection send() ignores
    await res.body?.cancel();
  }

  /** Aborts every delivery under way; later sends do nothing. */
  // Stryker disable next-line BlockStatement: shutdown plumbing: deliveries under way when the target closes
  close(): void {
    // Stryker disable next-line BooleanLiteral: shutdown plumbing: deliveries after the target closed
    this.closed = true;
    for (const abort of this.inFlight) abort.abort();
    this.inFlight.clear();
  }
}
