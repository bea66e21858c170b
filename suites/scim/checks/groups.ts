import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { PageLog, walk } from "../list-walk.js";
import type { ScimProfile } from "../profile.js";
import { resources, ScimClient, URN } from "../scim-client.js";

type Ctx = CheckContext<ScimProfile>;

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
/** Members as a multiset: the same ids, each as often (a member listed twice is a finding). */
const sameMembers = (got: readonly string[], want: readonly string[]): boolean => {
  const sorted = [...want].sort();
  return got.length === want.length && [...got].sort().every((id, i) => id === sorted[i]);
};
const ok = (res: HttpResponse): boolean => res.status === 200 || res.status === 204;

/**
 * PATCH add members with B (public-spec-facts §5: path `members`, value `[{"value": id}]`);
 * RFC 7644 §3.5.2.1: add to a multi-valued attribute adds to its values, so the group read
 * back holds exactly A and B. Stops the check when it does not: removal needs both.
 */
async function addB(c: Ctx, s: ScimClient, path: string, a: string, b: string): Promise<void> {
  const add = await s.call("PATCH", path, {
    body: patch([{ op: "add", path: "members", value: [{ value: b }] }]),
    label: "add member B",
  });
  const after = await s.call("GET", path, { label: "read after add" });
  c.require("SCIM-GROUP-MEMBER-ADD", ok(add) && sameMembers(memberIds(after), [a, b]), {
    expected: `200 (or 204), then exactly the members A ${a} and B ${b}`,
    actual: `${add.status}, then members ${quote(memberIds(after))}`,
    res: after,
  });
}

/**
 * PATCH remove `members[value eq "B"]` (public-spec-facts §5); RFC 7644 §3.5.2.2: a remove
 * with a value filter removes the values it matches, and only those, so A stays.
 */
async function removeB(c: Ctx, s: ScimClient, path: string, a: string, b: string): Promise<void> {
  const rm = await s.call("PATCH", path, {
    body: patch([{ op: "remove", path: `members[value eq "${b}"]` }]),
    label: "remove member B",
  });
  const after = await s.call("GET", path, { label: "read after remove" });
  c.check("SCIM-GROUP-MEMBER-REMOVE", ok(rm) && sameMembers(memberIds(after), [a]), {
    expected: `200 (or 204), then exactly the member A ${a} (B ${b} removed, A kept)`,
    actual: `${rm.status}, then members ${quote(memberIds(after))}`,
    res: after,
  });
}

/** specs/002 area C Endpoints (Groups are the Application's Roles), with the public PATCH forms. */
export const groupChecks = [
  defineCheck<ScimProfile>({
    id: "scim.group-create-read",
    title:
      "POST /Group creates a group that reads back with its members; GET /Group/{id} and a displayName filter with excludedAttributes=members leave members out",
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
        // A creation passes only when the new group reads back as it was sent, members included.
        const whole = await s.call("GET", `/Groups/${encodeURIComponent(gid ?? "")}`, {
          label: "read the new group with its members",
        });
        const made = whole.json as { displayName?: unknown } | undefined;
        c.check(
          "SCIM-GROUP-CREATE",
          whole.status === 200 && made?.displayName === name && sameMembers(memberIds(whole), [user.id]),
          {
            expected: `200 with displayName ${name} and exactly the member ${user.id} it was created with`,
            actual: `${whole.status} displayName ${quote(made?.displayName ?? null)}, members ${quote(memberIds(whole))}`,
            res: whole,
          },
        );
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
    title:
      'PATCH add members puts user B beside member A, PATCH remove members[value eq "B"] takes out B alone; each read back',
    requirements: ["SCIM-GROUP-MEMBER-ADD", "SCIM-GROUP-MEMBER-REMOVE"],
    async run(c) {
      const s = new ScimClient(c);
      const a = await s.createUser();
      if (a.id === undefined)
        return c.skip(`creating a member answered ${a.res.status}: see SCIM-USER-CREATE`, "dependency");
      let b: string | undefined;
      let gid: string | undefined;
      try {
        const second = await s.createUser();
        b = second.id;
        if (b === undefined)
          return c.skip(
            `creating a member answered ${second.res.status}: see SCIM-USER-CREATE`,
            "dependency",
          );
        // The group starts with a member, so an add that replaces or a remove that takes all shows.
        const created = await s.call("POST", "/Group", {
          body: group(s.name("group"), [a.id]),
          label: "create group with member A",
        });
        gid = idOf(created);
        if (gid === undefined)
          return c.skip(`creating the group answered ${created.status}: see SCIM-GROUP-CREATE`, "dependency");
        const path = `/Groups/${encodeURIComponent(gid)}`;
        const start = await s.call("GET", path, { label: "read the new group" });
        if (!sameMembers(memberIds(start), [a.id]))
          return c.skip(
            `the group created with member A reads back ${start.status} with members ${quote(memberIds(start))}: see SCIM-GROUP-CREATE`,
            "dependency",
          );
        await addB(c, s, path, a.id, b);
        await removeB(c, s, path, a.id, b);
      } finally {
        await s.remove("Groups", gid);
        await s.remove("Users", b);
        await s.remove("Users", a.id);
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.group-list",
    title:
      "GET /Groups pages by startIndex and count: every page a whole ListResponse, never more than count, every group found once",
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
        // The /Users walk, over every group: other clients may add groups meanwhile, so no
        // total is expected. Bounded: 2 per page, at most 500 pages.
        const log = new PageLog();
        const w = await walk(s, {
          resource: "/Groups",
          query: "excludedAttributes=members",
          count: 2,
          maxPages: 500,
          log,
        });
        c.require("SCIM-GROUP-LIST", w.problem === undefined, {
          expected: "every page a ListResponse of at most 2 groups (count=2), at the startIndex asked",
          actual: w.problem ?? "",
        });
        // RFC 7644 §3.4.2: every page of part of the list carries startIndex and itemsPerPage.
        await c.each("SCIM-GROUP-LIST", log.pages, "pages", (p) => p.violation);
        const counts = ids.map((id) => w.ids.filter((x) => x === id).length);
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
