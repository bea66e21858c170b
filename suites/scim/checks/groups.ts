import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { ScimProfile } from "../profile.js";
import { resources, ScimClient, URN } from "../scim-client.js";

const group = (displayName: string, members: string[] = []) => ({
  schemas: [URN.group],
  displayName,
  members: members.map((value) => ({ value })),
});
const idOf = (res: HttpResponse): string | undefined => {
  const id = (res.json as { id?: unknown } | undefined)?.id;
  return res.status === 201 && typeof id === "string" ? id : undefined;
};
const memberIds = (res: HttpResponse): string[] => {
  const m = (res.json as { members?: unknown } | undefined)?.members;
  return Array.isArray(m) ? m.map((x) => String((x as { value?: unknown }).value)) : [];
};
const patch = (ops: unknown[]) => ({ schemas: [URN.patch], Operations: ops });

/** specs/002 area C Endpoints (Groups are the Application's Roles), with the public PATCH forms. */
export const groupChecks = [
  defineCheck<ScimProfile>({
    id: "scim.group-create-read",
    title:
      "POST /Group creates a group; GET /Group/{id} and a displayName filter with excludedAttributes=members leave members out",
    requirements: ["SCIM-GROUP-CREATE", "SCIM-GROUP-GET-EXCLUDE", "SCIM-GROUP-FILTER"],
    async run(c) {
      const s = new ScimClient(c);
      const user = await s.createUser();
      if (user.id === undefined)
        return c.skip(`creating a member answered ${user.res.status}: see SCIM-USER-CREATE`, "dependency");
      let gid: string | undefined;
      try {
        const name = s.name("group");
        const res = await s.call("POST", "/Group", {
          body: group(name, [user.id]),
          label: "create group (POST /Group)",
        });
        gid = idOf(res);
        c.require("SCIM-GROUP-CREATE", gid !== undefined, {
          expected: "201 with a string id",
          actual: `${res.status} ${res.text.slice(0, 200)}`,
        });
        const one = await s.call(
          "GET",
          `/Group/${encodeURIComponent(gid ?? "")}?excludedAttributes=members`,
          { label: "get group without members" },
        );
        const g = one.json as { id?: unknown; members?: unknown } | undefined;
        c.check("SCIM-GROUP-GET-EXCLUDE", one.status === 200 && g?.id === gid && g?.members === undefined, {
          expected: "200 with the group and no members attribute",
          actual: `${one.status} members: ${quote(g?.members ?? null)}`,
          res: one,
        });
        const filter = encodeURIComponent(`displayName eq "${name}"`);
        const found = await s.call("GET", `/Groups?filter=${filter}&excludedAttributes=members`, {
          label: "filter groups by displayName",
        });
        const list = resources(found);
        c.check(
          "SCIM-GROUP-FILTER",
          found.status === 200 && list?.length === 1 && list[0]?.id === gid && list[0]?.members === undefined,
          {
            expected: `200 with exactly the group ${gid}, without members`,
            actual: `${found.status}: ${list ? quote(list.map((x) => ({ id: x.id, members: x.members !== undefined }))) : found.text.slice(0, 200)}`,
            res: found,
          },
        );
      } finally {
        await s.remove("Groups", gid);
        await s.remove("Users", user.id);
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.group-members",
    title: 'PATCH add members puts a user in the group, PATCH remove members[value eq "id"] takes it out',
    requirements: ["SCIM-GROUP-MEMBER-ADD", "SCIM-GROUP-MEMBER-REMOVE"],
    async run(c) {
      const s = new ScimClient(c);
      const user = await s.createUser();
      if (user.id === undefined)
        return c.skip(`creating a member answered ${user.res.status}: see SCIM-USER-CREATE`, "dependency");
      const created = await s.call("POST", "/Group", { body: group(s.name("group")), label: "create group" });
      const gid = idOf(created);
      try {
        if (gid === undefined)
          return c.skip(`creating the group answered ${created.status}: see SCIM-GROUP-CREATE`, "dependency");
        const path = `/Groups/${encodeURIComponent(gid)}`;
        const add = await s.call("PATCH", path, {
          body: patch([{ op: "add", path: "members", value: [{ value: user.id }] }]),
          label: "add member",
        });
        const afterAdd = await s.call("GET", path, { label: "read after add" });
        c.require(
          "SCIM-GROUP-MEMBER-ADD",
          (add.status === 200 || add.status === 204) && memberIds(afterAdd).includes(user.id),
          {
            expected: `200 (or 204), then member ${user.id}`,
            actual: `${add.status}, then members ${quote(memberIds(afterAdd))}`,
            res: afterAdd,
          },
        );
        const rm = await s.call("PATCH", path, {
          body: patch([{ op: "remove", path: `members[value eq "${user.id}"]` }]),
          label: "remove member",
        });
        const afterRm = await s.call("GET", path, { label: "read after remove" });
        c.check(
          "SCIM-GROUP-MEMBER-REMOVE",
          (rm.status === 200 || rm.status === 204) && !memberIds(afterRm).includes(user.id),
          {
            expected: `200 (or 204), then no member ${user.id}`,
            actual: `${rm.status}, then members ${quote(memberIds(afterRm))}`,
            res: afterRm,
          },
        );
      } finally {
        await s.remove("Groups", gid);
        await s.remove("Users", user.id);
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.group-list",
    title: "GET /Groups pages by startIndex and count: never more than count, every group found once",
    requirements: ["SCIM-GROUP-LIST"],
    async run(c) {
      const s = new ScimClient(c);
      const ids: string[] = [];
      try {
        for (let i = 0; i < 3; i++) {
          const id = idOf(
            await s.call("POST", "/Group", { body: group(s.name("list")), label: `create group ${i + 1}` }),
          );
          if (id === undefined) return c.skip("creating groups failed: see SCIM-GROUP-CREATE", "dependency");
          ids.push(id);
        }
        const seen = new Map<string, number>();
        let start = 1;
        let total = Infinity;
        // Bounded walk: 2 per page over everything listed, at most 500 pages.
        for (let page = 0; page < 500 && start <= total; page++) {
          const res = await s.call("GET", `/Groups?startIndex=${start}&count=2&excludedAttributes=members`, {
            label: `groups page ${page + 1}`,
          });
          const list = resources(res);
          const body = res.json as { totalResults?: unknown } | undefined;
          c.require(
            "SCIM-GROUP-LIST",
            res.status === 200 && list !== undefined && typeof body?.totalResults === "number",
            {
              expected: "200 with a ListResponse",
              actual: `${res.status} ${res.text.slice(0, 200)}`,
              res,
            },
          );
          c.require("SCIM-GROUP-LIST", (list?.length ?? 0) <= 2, {
            expected: "at most 2 per page (count=2)",
            actual: `${list?.length} resources`,
            res,
          });
          total = body?.totalResults as number;
          for (const g of list ?? []) seen.set(String(g.id), (seen.get(String(g.id)) ?? 0) + 1);
          if ((list?.length ?? 0) === 0) break;
          start += list?.length ?? 0;
        }
        const counts = ids.map((id) => seen.get(id) ?? 0);
        c.check(
          "SCIM-GROUP-LIST",
          counts.every((n) => n === 1),
          {
            expected: "each group created by this check listed exactly once",
            actual: ids.map((id, i) => `${id}: ${counts[i]}`).join(", "),
          },
        );
      } finally {
        for (const id of ids) await s.remove("Groups", id);
      }
    },
  }),
];
