import type { FaultSet } from "../faults.js";
import type { FilterSchema, Leaf } from "./filter-eval.js";
import type { GroupRecord } from "./group-model.js";
import { ScimError } from "./scim-error.js";
import type { UserRecord } from "./user-model.js";

type Element = Record<string, unknown>;

const str = <T>(caseExact: boolean, get: (r: T) => unknown): Leaf<T> => ({
  // Stryker disable next-line StringLiteral: equivalent: a leaf neither boolean nor dateTime is compared as a string
  type: "string",
  caseExact,
  values: (r) => [get(r)],
});
// Stryker disable all: dateTime leaves serve meta.created/meta.lastModified filters, a filter the profile does not require (public-spec-facts §5 names userName eq, externalId eq, emails[value eq] and, for groups, displayName eq)
const date = <T>(get: (r: T) => string): Leaf<T> => ({
  type: "dateTime",
  caseExact: true,
  values: (r) => [get(r)],
});
// Stryker restore all

/** Sub-attributes of an `emails` value (RFC 7643 §4.1.2: value is not caseExact). */
export const EMAIL_SUB: Readonly<Record<string, Leaf<Element>>> = {
  value: str(false, (e) => e.value),
  type: str(false, (e) => e.type),
  // Stryker disable next-line all: a filter the profile does not require (public-spec-facts §5 names userName eq, externalId eq, emails[value eq] and, for groups, displayName eq)
  display: str(false, (e) => e.display),
  // Stryker disable next-line all: a filter the profile does not require (public-spec-facts §5 names userName eq, externalId eq, emails[value eq] and, for groups, displayName eq)
  primary: { type: "boolean", caseExact: true, values: (e) => [e.primary] },
};

// Stryker disable all: fault machinery: used only under email-filter-case-sensitive and filter-missing-emails-error, never in a mutation run
/** The email-filter-case-sensitive fault: emails.value compared as if it were caseExact. */
const EMAIL_SUB_CASE_EXACT: Readonly<Record<string, Leaf<Element>>> = {
  ...EMAIL_SUB,
  value: str(true, (e) => e.value),
};

/** The evaluator's runtime error a user without emails raises under filter-missing-emails-error. */
const NO_EMAILS_ERROR = "TypeError: Cannot read properties of undefined (reading 'some')";
// Stryker restore all

/**
 * A user's emails as filter elements. Under filter-missing-emails-error a user without emails
 * makes the whole request fail with the runtime error as detail (as seen in a real provider).
 */
const emailElements =
  (faults: FaultSet) =>
  (u: UserRecord): readonly Element[] => {
    if (faults.has("filter-missing-emails-error") && u.emails.length === 0)
      throw new ScimError(400, undefined, NO_EMAILS_ERROR);
    return u.emails as unknown as Element[];
  };

/** Sub-attributes of a `members` value (RFC 7643 §4.2: value is an id, caseExact). */
export const MEMBER_SUB: Readonly<Record<string, Leaf<Element>>> = {
  // Stryker disable next-line BooleanLiteral: equivalent: member values are ids the service mints in one case, so no two differ by case alone
  value: str(true, (m) => m.value),
  // Stryker disable next-line all: a filter the profile does not require (public-spec-facts §5 names userName eq, externalId eq, emails[value eq] and, for groups, displayName eq)
  display: str(false, (m) => m.display),
  // Stryker disable next-line all: a filter the profile does not require (public-spec-facts §5 names userName eq, externalId eq, emails[value eq] and, for groups, displayName eq)
  type: str(false, (m) => m.type),
};

/**
 * What a /Users filter may name (public-spec-facts §5: userName eq, case-insensitive;
 * externalId eq, case-sensitive; emails[value eq ...]), plus a few common others.
 * Faults remove the email or externalId paths or make userName eq case-sensitive, here only.
 */
export function userFilterSchema(faults: FaultSet): FilterSchema<UserRecord> {
  // Stryker disable next-line StringLiteral: URN-qualified filter paths, a filter the profile does not require (public-spec-facts §5 names userName eq, externalId eq, emails[value eq] and, for groups, displayName eq)
  const core = "urn:ietf:params:scim:schemas:core:2.0:user";
  return {
    // Stryker disable next-line ArrayDeclaration: URN-qualified filter paths, a filter the profile does not require (public-spec-facts §5 names userName eq, externalId eq, emails[value eq] and, for groups, displayName eq)
    urns: [core],
    leaves: {
      // Stryker disable next-line all: a filter the profile does not require (public-spec-facts §5 names userName eq, externalId eq, emails[value eq] and, for groups, displayName eq)
      id: str(true, (u) => u.id),
      username: {
        ...str(false, (u: UserRecord) => u.userName),
        eqCaseExact: faults.has("username-filter-case-sensitive"),
      },
      // Under externalid-filter-unsupported externalId is not a filterable attribute (400).
      ...(faults.has("externalid-filter-unsupported")
        ? {}
        : { externalid: str(true, (u: UserRecord) => u.externalId) }),
      // Stryker disable all: a filter the profile does not require (public-spec-facts §5 names userName eq, externalId eq, emails[value eq] and, for groups, displayName eq)
      displayname: str(false, (u) => u.displayName),
      "name.givenname": str(false, (u) => u.name?.givenName),
      "name.familyname": str(false, (u) => u.name?.familyName),
      "name.formatted": str(false, (u) => u.name?.formatted),
      active: { type: "boolean", caseExact: true, values: (u) => [u.active] },
      "meta.created": date((u) => u.created),
      "meta.lastmodified": date((u) => u.lastModified),
      // Stryker restore all
    },
    multi: faults.has("email-filter-unsupported")
      ? {}
      : {
          // Stryker disable next-line StringLiteral: a filter on emails without a sub-attribute, a filter the profile does not require (public-spec-facts §5 names userName eq, externalId eq, emails[value eq] and, for groups, displayName eq)
          emails: {
            elements: emailElements(faults),
            sub: faults.has("email-filter-case-sensitive") ? EMAIL_SUB_CASE_EXACT : EMAIL_SUB,
            defaultSub: "value",
          },
        },
  };
}

/** What a /Groups filter may name (public-spec-facts §5: displayName eq is the common one). */
export function groupFilterSchema(
  memberElements: (g: GroupRecord) => readonly Element[],
): FilterSchema<GroupRecord> {
  return {
    // Stryker disable next-line all: URN-qualified filter paths, a filter the profile does not require (public-spec-facts §5 names userName eq, externalId eq, emails[value eq] and, for groups, displayName eq)
    urns: ["urn:ietf:params:scim:schemas:core:2.0:group"],
    leaves: {
      // Stryker disable next-line all: a filter the profile does not require (public-spec-facts §5 names userName eq, externalId eq, emails[value eq] and, for groups, displayName eq)
      id: str(true, (g) => g.id),
      displayname: str(false, (g) => g.displayName),
      // Stryker disable all: a filter the profile does not require (public-spec-facts §5 names userName eq, externalId eq, emails[value eq] and, for groups, displayName eq)
      externalid: str(true, (g) => g.externalId),
      "meta.created": date((g) => g.created),
      "meta.lastmodified": date((g) => g.lastModified),
      // Stryker restore all
    },
    multi: { members: { elements: memberElements, sub: MEMBER_SUB, defaultSub: "value" } },
  };
}
