import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { ScimProfile } from "../profile.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { absoluteUri, resources, ScimClient, URN } from "../scim-client.js";
import { attributeFaults, PROFILE_ATTRS, profileAttrFaults } from "./discovery-shape.js";

type Obj = Record<string, unknown>;
const SCHEMA_URN = "urn:ietf:params:scim:schemas:core:2.0:Schema";
const RT_URN = "urn:ietf:params:scim:schemas:core:2.0:ResourceType";
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const posInt = (v: unknown): boolean => Number.isInteger(v) && (v as number) > 0;

/**
 * The members of a discovery list (RFC 7644 §4): a bare array, or a ListResponse whose
 * totalResults counts every resource (these endpoints do not page), with what is wrong.
 */
function discoveryList(res: HttpResponse): { list: Obj[]; wrong: string[] } {
  if (Array.isArray(res.json)) return { list: res.json.filter(isObj), wrong: [] };
  const list = resources(res) ?? [];
  const j = isObj(res.json) ? res.json : {};
  const wrong: string[] = [];
  if (!Array.isArray(j.schemas) || !j.schemas.includes(URN.list))
    wrong.push(`schemas ${quote(j.schemas ?? null)} (a ListResponse)`);
  if (j.totalResults !== list.length)
    wrong.push(`totalResults ${quote(j.totalResults ?? null)} for ${list.length} resources`);
  return { list, wrong };
}

/** RFC 7643 §5: the REQUIRED members of a ServiceProviderConfig, as "what is wrong". */
function spcFaults(spc: Obj): string[] {
  const out: string[] = [];
  const sub = (k: string): Obj => (isObj(spc[k]) ? spc[k] : {});
  for (const k of ["patch", "bulk", "filter", "changePassword", "sort", "etag"])
    if (typeof sub(k).supported !== "boolean") out.push(`${k}.supported ${quote(sub(k).supported ?? null)}`);
  for (const [k, m] of [
    ["bulk", "maxOperations"],
    ["bulk", "maxPayloadSize"],
    ["filter", "maxResults"],
  ] as const)
    if (!Number.isInteger(sub(k)[m])) out.push(`${k}.${m} ${quote(sub(k)[m] ?? null)} is not an integer`);
  const schemes = Array.isArray(spc.authenticationSchemes) ? (spc.authenticationSchemes as unknown[]) : [];
  if (schemes.length === 0) out.push("no authenticationSchemes");
  for (const a of schemes) {
    const o = isObj(a) ? a : {};
    for (const m of ["type", "name", "description"])
      if (typeof o[m] !== "string" || o[m] === "")
        out.push(`authenticationSchemes ${m} ${quote(o[m] ?? null)}`);
  }
  return out;
}

/** RFC 9865: the members of a pagination object, each of its type when given. */
function paginationFaults(pg: Obj): string[] {
  const out: string[] = [];
  for (const k of ["cursor", "index"])
    if (typeof pg[k] !== "boolean") out.push(`${k} ${quote(pg[k] ?? null)} is not a boolean`);
  const method = pg.defaultPaginationMethod;
  if (method !== undefined && !(["cursor", "index"].includes(String(method)) && pg[String(method)] === true))
    out.push(`defaultPaginationMethod ${quote(method)} is not an offered method`);
  for (const k of ["defaultPageSize", "maxPageSize", "cursorTimeout"])
    if (pg[k] !== undefined && !posInt(pg[k])) out.push(`${k} ${quote(pg[k])} is not a positive integer`);
  if (
    posInt(pg.defaultPageSize) &&
    posInt(pg.maxPageSize) &&
    (pg.defaultPageSize as number) > (pg.maxPageSize as number)
  )
    out.push(`defaultPageSize ${String(pg.defaultPageSize)} above maxPageSize ${String(pg.maxPageSize)}`);
  return out;
}

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
      const missing = spcFaults(spc);
      // RFC 7643 §3.1, §5: meta, when given, names the resource type and this endpoint.
      const meta = isObj(spc.meta) ? spc.meta : undefined;
      if (
        spc.meta !== undefined &&
        !(
          meta?.resourceType === "ServiceProviderConfig" &&
          absoluteUri(meta.location, `${s.base}/ServiceProviderConfig`) === `${s.base}/ServiceProviderConfig`
        )
      )
        missing.push(`meta ${quote(spc.meta)}`);
      c.check("SCIM-SPC-AVAILABLE", missing.length === 0, {
        expected:
          "every member RFC 7643 §5 requires (patch, bulk, filter, changePassword, sort, etag, authenticationSchemes)",
        actual: missing.join("; "),
        res,
      });
      const supported = (k: string): unknown => (spc[k] as { supported?: unknown } | undefined)?.supported;
      c.check("SCIM-SPC-CAPABILITIES", supported("patch") === true && supported("filter") === true, {
        expected: "patch.supported and filter.supported are true",
        actual: `patch.supported: ${quote(supported("patch"))}, filter.supported: ${quote(supported("filter"))}`,
      });
      const pg = spc.pagination as { cursor?: unknown; index?: unknown } | undefined;
      const pgWrong = isObj(pg) ? paginationFaults(pg) : ["no pagination object"];
      c.check("SCIM-SPC-PAGINATION", pgWrong.length === 0, {
        expected: "a pagination object with cursor and index, each member of its RFC 9865 type",
        actual: `${pgWrong.join("; ")}: ${quote(spc.pagination ?? null)}`,
      });
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.resource-types",
    title: "GET /ResourceTypes includes User and Group",
    requirements: ["SCIM-RT-USERS-GROUPS"],
    async run(c) {
      const s = new ScimClient(c);
      const res = await s.call("GET", "/ResourceTypes", { label: "ResourceTypes" });
      c.require("SCIM-RT-USERS-GROUPS", res.status === 200, { expected: "200", actual: String(res.status) });
      c.json<unknown>("SCIM-RT-USERS-GROUPS", res);
      const { list, wrong } = discoveryList(res);
      const has = (name: string, endpoint: string, schema: string): boolean =>
        list.some((r) => r.name === name && r.endpoint === endpoint && r.schema === schema);
      c.check("SCIM-RT-USERS-GROUPS", has("User", "/Users", URN.user) && has("Group", "/Groups", URN.group), {
        expected: `resource types User (/Users, ${URN.user}) and Group (/Groups, ${URN.group})`,
        kind: ["User", "Group"].every((n) => list.some((r) => r.name === n)) ? "wrong-value" : "missing",
        actual:
          list.map((r) => `${String(r.name)} (${String(r.endpoint)}, ${String(r.schema)})`).join(", ") ||
          "none",
      });
      // RFC 7643 §6: every resource type is a ResourceType resource; each extension names its
      // schema and whether it is required.
      await c.each("SCIM-RT-USERS-GROUPS", list, "resource types", (r) => {
        const bad = [...wrong];
        if (!Array.isArray(r.schemas) || !r.schemas.includes(RT_URN))
          bad.push(`schemas ${quote(r.schemas ?? null)}`);
        for (const k of ["name", "endpoint", "schema"])
          if (typeof r[k] !== "string" || r[k] === "") bad.push(`${k} ${quote(r[k] ?? null)}`);
        const ext = r.schemaExtensions === undefined ? [] : r.schemaExtensions;
        if (!Array.isArray(ext)) bad.push(`schemaExtensions ${quote(ext)}`);
        else
          for (const e of ext as unknown[])
            if (!isObj(e) || typeof e.schema !== "string" || typeof e.required !== "boolean")
              bad.push(`schemaExtensions member ${quote(e)} (schema and required)`);
        return bad.length === 0
          ? undefined
          : { expected: "a ResourceType (RFC 7643 §6)", actual: `${String(r.name)}: ${bad.join("; ")}` };
      });
      // RFC 7643 §3.1: meta.location is the resource type's own URI; reading it answers it.
      await c.each("SCIM-RT-USERS-GROUPS", list, "resource types", async (r) => {
        if (r.meta === undefined) return undefined;
        const meta = isObj(r.meta) ? r.meta : {};
        const loc = absoluteUri(meta.location, `${s.base}/ResourceTypes`) ?? "";
        const own = meta.resourceType === "ResourceType" && loc.startsWith(`${s.base}/ResourceTypes/`);
        const one = own ? await s.call("GET", loc, { label: `resource type ${String(r.name)}` }) : undefined;
        const back = one?.status === 200 && isObj(one.json) ? one.json : {};
        return own && back.name === r.name && back.endpoint === r.endpoint
          ? undefined
          : {
              expected: `meta.resourceType ResourceType and a meta.location under ${s.base}/ResourceTypes/ that answers ${String(r.name)}`,
              actual: `meta ${quote(r.meta)}${one ? `; GET it: ${one.status} ${quote(back.name ?? null)}` : ""}`,
              ...(one ? { res: one } : {}),
            };
      });
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.schemas",
    title:
      "GET /Schemas answers the User and Group schemas, every attribute defined with its RFC 7643 characteristics",
    requirements: ["SCIM-SCHEMAS-AVAILABLE"],
    async run(c) {
      const s = new ScimClient(c);
      const res = await s.call("GET", "/Schemas", { label: "Schemas" });
      const { list, wrong } = res.status === 200 ? discoveryList(res) : { list: [], wrong: [] };
      const ids = list.map((d) => d.id);
      c.require("SCIM-SCHEMAS-AVAILABLE", ids.includes(URN.user) && ids.includes(URN.group), {
        expected: `200 with schemas ${URN.user} and ${URN.group}`,
        actual: `${res.status}: ${ids.map(String).join(", ") || "none"}`,
      });
      // RFC 7643 §7: every schema, every attribute definition with all its characteristics.
      await c.each("SCIM-SCHEMAS-AVAILABLE", list, "schemas", (d) => {
        const bad = [...wrong];
        if (!Array.isArray(d.schemas) || !d.schemas.includes(SCHEMA_URN))
          bad.push(`schemas ${quote(d.schemas ?? null)}`);
        if (typeof d.name !== "string" || d.name === "") bad.push(`name ${quote(d.name ?? null)}`);
        // RFC 7643 §3.1: meta, when given, names the resource type and the schema's own URI.
        const meta = d.meta;
        if (
          meta !== undefined &&
          !(
            isObj(meta) &&
            meta.resourceType === "Schema" &&
            (absoluteUri(meta.location, `${s.base}/Schemas`) ?? "").endsWith(`/Schemas/${String(d.id)}`)
          )
        )
          bad.push(`meta ${quote(meta)}`);
        if (!Array.isArray(d.attributes) || d.attributes.length === 0) bad.push("no attributes");
        else for (const a of d.attributes as unknown[]) bad.push(...attributeFaults(a, "attributes"));
        return bad.length === 0
          ? undefined
          : {
              expected: "a schema as RFC 7643 §7 defines it",
              actual: `${String(d.id)}: ${bad.slice(0, 5).join("; ")}`,
            };
      });
      // The attributes the profile's users and groups carry, as RFC 7643 §4 characterises them,
      // from the list and from the schema's own URI (RFC 7644 §4).
      for (const [urn, kind] of [
        [URN.user, "user"],
        [URN.group, "group"],
      ] as const) {
        const one = await s.call("GET", `/Schemas/${urn}`, { label: `schema ${kind}` });
        const fromList = list.find((d) => d.id === urn);
        const got = isObj(one.json) ? one.json : {};
        const same = JSON.stringify(got.attributes) === JSON.stringify(fromList?.attributes);
        const bad = profileAttrFaults(fromList, PROFILE_ATTRS[kind]);
        c.check("SCIM-SCHEMAS-AVAILABLE", one.status === 200 && got.id === urn && same && bad.length === 0, {
          expected: `the ${kind} attributes as RFC 7643 §4 gives them, and GET /Schemas/${urn} answering the same schema`,
          actual: `${bad.join("; ")}${one.status === 200 && got.id === urn && same ? "" : `; GET /Schemas/${urn}: ${one.status} id ${quote(got.id ?? null)}${same ? "" : ", other attributes"}`}`,
          res: one,
        });
      }
    },
  }),
];
