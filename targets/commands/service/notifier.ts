import { randomUUID } from "node:crypto";
import { LIMITS } from "../limits.js";
import type { MetadataStore } from "./op-metadata.js";
import type { RpKeys } from "./rp-keys.js";

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
    const timer = setTimeout(() => abort.abort(), LIMITS.notificationTimeoutMs);
    timer.unref();
    void this.deliver(endpoint, result, abort.signal)
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(timer);
        this.inFlight.delete(abort);
      });
  }

  private async deliver(endpoint: string, r: NotificationResult, signal: AbortSignal): Promise<void> {
    const url = new URL(endpoint);
    if (url.protocol !== "https:" && url.protocol !== "http:") return;
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
        ...(r.sub !== undefined ? { sub: r.sub } : {}),
        account_state: r.accountState,
        ...(r.audSub !== undefined ? { aud_sub: r.audSub } : {}),
        ...(r.error !== undefined ? { error: r.error } : {}),
      },
      NOTIFICATION_TYP,
    );
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/jwt" },
      body: jwt,
      redirect: "manual",
      signal,
    });
    await res.body?.cancel();
  }

  /** Aborts every delivery under way; later sends do nothing. */
  close(): void {
    this.closed = true;
    for (const abort of this.inFlight) abort.abort();
    this.inFlight.clear();
  }
}
