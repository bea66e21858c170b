import { Hono, type Context } from "hono";
import type { ScimDeps } from "./deps.js";
import { parseExcluded, withoutExcluded } from "./excluded-attributes.js";
import { groupFilterSchema } from "./filter-schemas.js";
import { filterFromQuery } from "./filter-query.js";
import {
  memberValues,
  parseGroupInput,
  renderGroup,
  type GroupRecord,
  type MemberLookup,
} from "./group-model.js";
import { patchGroup } from "./group-patch.js";
import { readJsonObject } from "./json-body.js";
import { listPage } from "./list.js";
import { parsePatchRequest } from "./patch-op.js";
import { notFound } from "./scim-error.js";
import { pageQuery } from "./user-routes.js";

/**
 * /Group and /Groups (specs/002 area C Endpoints: the profile writes POST /Group and
 * GET /Group/{id}; RFC 7644 uses /Groups), both served: create, read with
 * excludedAttributes=members, list with displayName filters and paging, PATCH members,
 * DELETE.
 */
export function groupRoutes(d: ScimDeps): Hono {
  const app = new Hono();
  const lookup: MemberLookup = (id) => {
    const u = d.users.get(id);
    // Stryker disable next-line ObjectLiteral,LogicalOperator: members.display is an optional, free human-readable name (RFC 7643 §4.2)
    return u ? { display: u.displayName ?? u.userName } : undefined;
  };
  // Stryker disable next-line ArrowFunction: a /Groups filter on members, which the profile does not fix (public-spec-facts §5: no Group filter is fixed; displayName eq is the common one)
  const filterSchema = groupFilterSchema((g) => memberValues(g, d.base(), lookup));
  const render = (g: GroupRecord, c: Context): Record<string, unknown> => {
    // Under excluded-attributes-ignored the parameter is not read at all.
    const excluded = d.faults.has("excluded-attributes-ignored")
      ? new Set<string>()
      : parseExcluded(c.req.query("excludedAttributes"));
    // Stryker disable next-line StringLiteral: equivalent on the clean target: withoutExcluded below leaves members out too (this only spares rendering them)
    const group = renderGroup(g, d.base(), lookup, !excluded.has("members"));
    // excluded-attributes-members-only: only members can be left out.
    return d.faults.has("excluded-attributes-members-only") ? group : withoutExcluded(group, excluded);
  };
  const find = (id: string): GroupRecord => {
    const group = d.groups.get(id);
    // Stryker disable next-line StringLiteral: the word only goes into the 404's detail, which is free text (RFC 7644 §3.12)
    if (group === undefined) throw notFound("group");
    return group;
  };

  for (const path of ["/Group", "/Groups"]) {
    app.post(path, async (c) => {
      const fields = parseGroupInput(await readJsonObject(c.req.raw, d.faults), lookup);
      // group-create-drops-members: members are validated but not stored (a PATCH must add them).
      if (d.faults.has("group-create-drops-members")) fields.members = [];
      const group = d.groups.create(fields);
      const status = d.faults.has("group-create-200") ? 200 : 201;
      return d.respond.json(render(group, c), status, { location: `${d.base()}/Groups/${group.id}` });
    });

    app.get(path, (c) => {
      const match = filterFromQuery(c.req.query("filter"), filterSchema, d.faults);
      const items = d.groups.all().filter(match);
      const query = pageQuery(c);
      return d.respond.json(
        listPage(
          items,
          d.faults.has("groups-list-ignores-count") ? { ...query, count: undefined } : query,
          {
            // Stryker disable next-line StringLiteral: equivalent: the kind binds a cursor to its list, encoded and decoded alike; RFC 9865 does not require a cursor of another list to be refused
            kind: "Group",
            cursors: d.cursors,
            zeroBasedStartIndex: d.faults.has("list-start-index-zero-based"),
            itemsPerPageOnFirstOnly: d.faults.has("list-omits-paging-members"),
          },
          (g) => render(g, c),
        ),
      );
    });

    app.get(`${path}/:id`, (c) => {
      // group-404-plain: the group handlers answer an unknown id in a JSON shape of their own.
      if (d.faults.has("group-404-plain") && d.groups.get(c.req.param("id")) === undefined)
        return c.json({ error: "group not found" }, 404);
      // Under group-not-found-200 an unknown id reads like a filter that matched nothing.
      if (d.faults.has("group-not-found-200") && d.groups.get(c.req.param("id")) === undefined) {
        return d.respond.json(
          listPage([], pageQuery(c), { kind: "Group", cursors: d.cursors }, (g) => render(g, c)),
        );
      }
      return d.respond.json(render(find(c.req.param("id")), c));
    });

    app.patch(`${path}/:id`, async (c) => {
      const body = await readJsonObject(c.req.raw, d.faults);
      const group = find(c.req.param("id"));
      const fields = patchGroup(group, parsePatchRequest(body), lookup, d.faults);
      return d.respond.json(render(d.groups.update(group.id, fields), c));
    });

    app.delete(`${path}/:id`, (c) => {
      if (d.faults.has("group-404-plain") && d.groups.get(c.req.param("id")) === undefined)
        return c.json({ error: "group not found" }, 404);
      // group-delete-keeps: the DELETE of a group that exists answers 204 and removes nothing.
      if (d.faults.has("group-delete-keeps") && d.groups.get(c.req.param("id")) !== undefined)
        return c.body(null, 204);
      const removed = d.groups.delete(c.req.param("id"));
      // Stryker disable next-line StringLiteral: the word only goes into the 404's detail, which is free text (RFC 7644 §3.12)
      if (!removed) throw notFound("group");
      return c.body(null, 204);
    });
  }

  return app;
}
