import { randomInt } from "node:crypto";
import type { ConfigurationId } from "../configurations.js";
import type { VciContext } from "../context.js";
import { LIMITS } from "../limits.js";
import { randomId } from "../random.js";
import { ExpiringStore } from "../store.js";

/** What one access token allows (specs/000 Rules 3: identification of the requested credentials). */
export interface Grant {
  /** Configurations the token may obtain. */
  readonly configurationIds: readonly ConfigurationId[];
  /**
   * The credential_identifiers of the Token Response, each naming its configuration;
   * undefined when none were issued (the wallet then sends credential_configuration_id).
   */
  readonly identifiers: ReadonlyMap<string, ConfigurationId> | undefined;
  /** Whether credentials are deferred (the offer asked for it). */
  readonly deferred: boolean;
  /** notification_ids issued to this token. */
  readonly notificationIds: Set<string>;
  /** Whether a credential request already succeeded with it (the `token-single-use` fault). */
  usedForCredential: boolean;
}

/** Live bearer access tokens, each with its grant; the latest is remembered for a fault. */
export class AccessTokens {
  private readonly tokens = new ExpiringStore<Grant>();
  /** The most recent grant (the `bad-token-accepted` fault takes any token as this one). */
  latest: Grant | undefined;

  /** Issues a token for `grant`, living `lifetime` seconds. */
  issue(grant: Grant, lifetime: number): string {
    const token = randomId();
    this.tokens.set(token, grant, lifetime);
    this.latest = grant;
    return token;
  }

  /** The grant of a live token. */
  find(token: string): Grant | undefined {
    return this.tokens.get(token);
  }
}

/** A grant of `configurationIds`, with the identifiers (if any) and deferral given. */
export const newGrant = (
  configurationIds: readonly ConfigurationId[],
  identifiers: ReadonlyMap<string, ConfigurationId> | undefined,
  deferred: boolean,
): Grant => ({
  configurationIds,
  identifiers,
  deferred,
  notificationIds: new Set(),
  // Stryker disable next-line BooleanLiteral: read only under the fault "token-single-use" (credential-endpoint.ts tests it together with that fault)
  usedForCredential: false,
});

/** The access token lifetime in seconds (5 minutes; an hour with `token-long-lived`). */
export const tokenLifetime = (long: boolean): number =>
  long ? LIMITS.longAccessTokenLifetimeSeconds : LIMITS.accessTokenLifetimeSeconds;

/**
 * A fresh notification_id for a credential response, remembered for `grant`: a random string,
 * or under the `notification-id-number` fault a random integer (remembered in its string form).
 */
export function issueNotificationId(ctx: VciContext, grant: Grant): string | number {
  if (ctx.faults.has("notification-id-number")) {
    const id = randomInt(1, 2 ** 48);
    rememberNotification(grant, String(id));
    return id;
  }
  const id = randomId(24);
  rememberNotification(grant, id);
  return id;
}

/** Records a notification_id issued to `grant`, keeping at most the latest 1 000. */
export function rememberNotification(grant: Grant, id: string): void {
  grant.notificationIds.add(id);
  // Stryker disable all: a memory bound on remembered notification_ids that no requirement states (specs/000 Events names no limit); reaching it takes 1 001 credential responses for one token
  if (grant.notificationIds.size > 1_000) {
    const oldest = grant.notificationIds.values().next();
    if (oldest.done !== true) grant.notificationIds.delete(oldest.value);
  }
  // Stryker restore all
}
