import { createHash } from "node:crypto";
import type { ConfigurationId } from "../configurations.js";
import { LIMITS } from "../limits.js";
import { randomId } from "../random.js";
import { ExpiringStore } from "../store.js";

/** An authorization code and the authorization request it answers. */
export interface AuthorizationCode {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly configurationIds: readonly ConfigurationId[];
  /** Whether the request used authorization_details (then the Token Response carries them). */
  readonly viaDetails: boolean;
  readonly deferred: boolean;
}

/** Live authorization codes: short lived and single use. */
export class AuthorizationCodes {
  private readonly codes = new ExpiringStore<AuthorizationCode>();

  issue(code: AuthorizationCode): string {
    const value = randomId();
    this.codes.set(value, code, LIMITS.authorizationCodeLifetimeSeconds);
    return value;
  }

  // Stryker disable all: reached only under the auth-code-reusable fault
  /** Looks a code up and leaves it (the `auth-code-reusable` fault). */
  peek(value: string): AuthorizationCode | undefined {
    return this.codes.get(value);
  }
  // Stryker restore all

  /** Takes a code out: found or not, it cannot be exchanged again. */
  take(value: string): AuthorizationCode | undefined {
    const code = this.codes.get(value);
    this.codes.delete(value);
    return code;
  }
}

/** The PKCE S256 challenge of a verifier (RFC 7636 §4.2). */
export const s256 = (verifier: string): string =>
  // Stryker disable next-line StringLiteral: equivalent: a verifier is unreserved ASCII (RFC 7636 §4.1), the same bytes in UTF-8
  createHash("sha256").update(verifier, "ascii").digest("base64url");

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
export const isPkceValue = (v: string): boolean => /^[A-Za-z0-9\-._~]{43,128}$/.test(v);
