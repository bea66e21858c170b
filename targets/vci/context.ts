import type { VciIdentifiers } from "../../src/protocols/vci.js";
import type { FaultSet } from "./faults.js";
import type { IssuerKeys } from "./keys.js";

/** Path of the issuer identifier below the origin: the identifier has a path on purpose. */
// Stryker disable next-line StringLiteral: equivalent for the protocol: an issuer identifier without a path is as valid (specs/000: an https URL); every URL is derived from it, so the checks see a consistent issuer either way
export const ISSUER_PATH = "/issuer";

/** What every part of the target shares: its faults, identifier set, URLs and keys. */
export interface VciContext {
  readonly faults: FaultSet;
  readonly ids: VciIdentifiers;
  /** `https://127.0.0.1:port`, known once the server listens. */
  readonly origin: () => string;
  /** The Credential Issuer Identifier, `<origin>/issuer` (also the Authorization Server's issuer). */
  readonly issuer: () => string;
  readonly keys: IssuerKeys;
}

/** The absolute URL of an endpoint below the issuer identifier (`/issuer/<name>`). */
export const endpoint = (ctx: VciContext, name: string): string => `${ctx.issuer()}/${name}`;
