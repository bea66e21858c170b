import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { ScimProfile } from "../profile.js";
import { resources, ScimClient, URN } from "../scim-client.js";

/** specs/002 area C Endpoints: /ServiceProviderConfig, /ResourceTypes, /Schemas. */
export const discoveryChecks = [
  defineCheck<ScimProfile>({
    id: "scim.service-provider-config",
    title: "GET /ServiceProviderConfig lists patch and filter as supported, and a pagination object",
    requirements: ["SCIM-SPC-AVAILABLE", "SCIM-SPC-CAPABILITIES", "SCIM-SPC-PAGINATION"],
    async run(c) {
      const s = new ScimClient(c);
      const res = await s.call("GET", "/ServiceProviderConfig", { label: "ServiceProviderConfig" });
      c.require("SCIM-SPC-AVAILABLE", res.status === 200, { expected: "200", actual: String(res.status) });
      const spc = c.json<Record<string, unknown>>("SCIM-SPC-AVAILABLE", res);
      const schemas = Array.isArray(spc.schemas) ? spc.schemas : [];
      c.check("SCIM-SPC-AVAILABLE", schemas.includes(URN.spc), {
        expected: `schemas includes ${URN.spc}`,
        actual: quote(spc.schemas),
      });
      const supported = (k: string): unknown => (spc[k] as { supported?: unknown } | undefined)?.supported;
      c.check("SCIM-SPC-CAPABILITIES", supported("patch") === true && supported("filter") === true, {
        expected: "patch.supported and filter.supported are true",
        actual: `patch.supported: ${quote(supported("patch"))}, filter.supported: ${quote(supported("filter"))}`,
      });
      const pg = spc.pagination as { cursor?: unknown; index?: unknown } | undefined;
      c.check("SCIM-SPC-PAGINATION", typeof pg?.cursor === "boolean" || typeof pg?.index === "boolean", {
        expected: "a pagination object with cursor and index (RFC 9865)",
        actual: quote(spc.pagination ?? null),
      });
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.resource-types",
    title: "GET /ResourceTypes includes User and Group",
    requirements: ["SCIM-RT-USERS-GROUPS"],
    async run(c) {
      const res = await new ScimClient(c).call("GET", "/ResourceTypes", { label: "ResourceTypes" });
      c.require("SCIM-RT-USERS-GROUPS", res.status === 200, { expected: "200", actual: String(res.status) });
      const body = c.json<unknown>("SCIM-RT-USERS-GROUPS", res);
      const list = Array.isArray(body) ? (body as Record<string, unknown>[]) : (resources(res) ?? []);
      const has = (name: string, endpoint: string): boolean =>
        list.some((r) => r.name === name || r.endpoint === endpoint);
      c.check("SCIM-RT-USERS-GROUPS", has("User", "/Users") && has("Group", "/Groups"), {
        expected: "resource types User (/Users) and Group (/Groups)",
        actual: list.map((r) => `${String(r.name)} (${String(r.endpoint)})`).join(", ") || "none",
      });
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.schemas",
    title: "GET /Schemas answers the User and Group schemas",
    requirements: ["SCIM-SCHEMAS-AVAILABLE"],
    async run(c) {
      const res = await new ScimClient(c).call("GET", "/Schemas", { label: "Schemas" });
      const list =
        res.status === 200
          ? Array.isArray(res.json)
            ? (res.json as Record<string, unknown>[])
            : (resources(res) ?? [])
          : [];
      const ids = list.map((s) => s.id);
      c.check("SCIM-SCHEMAS-AVAILABLE", ids.includes(URN.user) && ids.includes(URN.group), {
        expected: `200 with schemas ${URN.user} and ${URN.group}`,
        actual: `${res.status}: ${ids.map(String).join(", ") || "none"}`,
      });
    },
  }),
];
