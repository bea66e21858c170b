import { Hono } from "hono";
import { LIMITS } from "../limits.js";
import type { ScimDeps } from "./deps.js";
import { GROUP_URN } from "./group-model.js";
import { LIST_URN } from "./responder.js";
import { renderSchema, SCHEMA_DOCS } from "./schema-docs.js";
import { notFound, ScimError } from "./scim-error.js";
import { ENTERPRISE_URN, USER_URN } from "./user-model.js";

const SPC_URN = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig";
const RESOURCE_TYPE_URN = "urn:ietf:params:scim:schemas:core:2.0:ResourceType";

const RESOURCE_TYPES = [
  {
    id: "User",
    name: "User",
    endpoint: "/Users",
    // Stryker disable next-line StringLiteral: free text (RFC 7643 §6 description), no rule reads it
    description: "User Account",
    schema: USER_URN,
    // Stryker disable next-line ArrayDeclaration,BooleanLiteral: whether User offers the enterprise extension, and requires it, is the provider's choice (RFC 7643 §6); the suite judges enterprise attributes only when offered
    schemaExtensions: [{ schema: ENTERPRISE_URN, required: false }],
  },
  {
    id: "Group",
    name: "Group",
    endpoint: "/Groups",
    description: "Group (the Application's Roles)",
    schema: GROUP_URN,
  },
];

const list = (resources: readonly unknown[]): Record<string, unknown> => ({
  schemas: [LIST_URN],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
});

/**
 * Discovery (specs/002 area C Endpoints; RFC 7644 §4): /ServiceProviderConfig lists the
 * capabilities the profile needs (patch, filter) and the pagination methods (RFC 9865);
 * /ResourceTypes includes User and Group; /Schemas answers their schemas.
 */
export function discoveryRoutes(d: ScimDeps): Hono {
  const app = new Hono();
  const resourceType = (rt: (typeof RESOURCE_TYPES)[number]): Record<string, unknown> => ({
    schemas: [RESOURCE_TYPE_URN],
    ...rt,
    meta: { resourceType: "ResourceType", location: `${d.base()}/ResourceTypes/${rt.id}` },
  });

  app.get("/ServiceProviderConfig", () => {
    // Under spc-missing the endpoint answers as an unknown one does (app.ts notFound).
    if (d.faults.has("spc-missing")) throw new ScimError(404, undefined, "no such endpoint");
    return d.respond.json({
      schemas: [SPC_URN],
      patch: { supported: true },
      // Stryker disable next-line BooleanLiteral: a capability the profile does not use (RFC 7644 leaves it optional); no requirement judges the claim
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: !d.faults.has("spc-no-filter"), maxResults: LIMITS.maxPageSize },
      // Stryker disable next-line BooleanLiteral: a capability the profile does not use (RFC 7644 leaves it optional); no requirement judges the claim
      changePassword: { supported: false },
      // Stryker disable next-line BooleanLiteral: a capability the profile does not use (RFC 7644 leaves it optional); no requirement judges the claim
      sort: { supported: false },
      // Stryker disable next-line BooleanLiteral: a capability the profile does not use (RFC 7644 leaves it optional); no requirement judges the claim
      etag: { supported: false },
      authenticationSchemes: [
        { type: "oauthbearertoken", name: "OAuth Bearer Token", description: "RFC 7523 client assertion" },
      ],
      pagination: {
        cursor: true,
        index: true,
        defaultPaginationMethod: "index",
        defaultPageSize: LIMITS.defaultPageSize,
        maxPageSize: LIMITS.maxPageSize,
        cursorTimeout: LIMITS.cursorTimeoutSeconds,
      },
      meta: { resourceType: "ServiceProviderConfig", location: `${d.base()}/ServiceProviderConfig` },
    });
  });

  const resourceTypes = d.faults.has("resource-types-no-group")
    ? RESOURCE_TYPES.filter((rt) => rt.id !== "Group")
    : RESOURCE_TYPES;
  app.get("/ResourceTypes", () => d.respond.json(list(resourceTypes.map(resourceType))));
  app.get("/ResourceTypes/:id", (c) => {
    const rt = resourceTypes.find((r) => r.id === c.req.param("id"));
    // Stryker disable next-line StringLiteral: only the free-text detail of the 404
    if (rt === undefined) throw notFound("resource type");
    return d.respond.json(resourceType(rt));
  });

  const schemaDocs = d.faults.has("schema-username-case-exact")
    ? // The User schema calls userName caseExact, though filters and uniqueness ignore its case.
      SCHEMA_DOCS.map((doc) =>
        doc.id === USER_URN
          ? {
              ...doc,
              attributes: (doc.attributes as Record<string, unknown>[]).map((a) =>
                a.name === "userName" ? { ...a, caseExact: true } : a,
              ),
            }
          : doc,
      )
    : SCHEMA_DOCS;
  app.get("/Schemas", () => d.respond.json(list(schemaDocs.map((s) => renderSchema(s, d.base())))));
  app.get("/Schemas/:id", (c) => {
    const doc = schemaDocs.find((s) => s.id === c.req.param("id"));
    // Stryker disable next-line StringLiteral: only the free-text detail of the 404
    if (doc === undefined) throw notFound("schema");
    return d.respond.json(renderSchema(doc, d.base()));
  });

  return app;
}
