import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { PageLog, walk } from "../list-walk.js";
import { groupLifecycleChecks } from "./group-lifecycle.js";
import type { ScimProfile } from "../profile.js";
import { absoluteUri, resources, ScimClient, URN } from "../scim-client.js";
import {
  asJson,
  BARE,
  excludeProblem,
  groupShapeProblem,
  MEMBERS_EXCLUDED,
  totalOnly,
  type Json,
} from "./group-shape.js";

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

/**
 * specs/002 area C Endpoints (Groups are the Application's Roles), with the public PATCH forms;
 * the removal, cursor and excludedAttributes checks of group-lifecycle.ts go with them, so that
 * every check that makes groups runs in the one file beside the /Groups walk. Groups are
 * tested at the endpoint /ResourceTypes gives (`ScimClient.groups`); the document's literal
 * `/Group` paths are judged by scim.group-profile-paths alone.
 */
export const groupChecks = [
  defineCheck<ScimProfile>({
    id: "scim.group-create-read",
    title:
      "POST to the Group endpoint of /ResourceTypes (SCIM's /Groups) creates a group (with members, without, with members null) that reads back as created, with Location and meta; excludedAttributes=members in any case or with its URN, and a displayName filter with it, leave members out and nothing else",
    requirements: ["SCIM-GROUP-CREATE", "SCIM-GROUP-GET-EXCLUDE", "SCIM-GROUP-FILTER"],
    async run(c) {
      const s = new ScimClient(c);
      const g = await s.groups();
      const user = await s.createUser();
      if (user.id === undefined)
        return c.skip(`creating a member answered ${user.res.status}: see SCIM-USER-CREATE`, "dependency");
      let gid: string | undefined;
      const bareIds: string[] = [];
      try {
        // A double quote in the name: the filter below carries it escaped, as a JSON string
        // (RFC 7644 §3.4.2.2: compValue is a JSON string, RFC 7159).
        const name = `${s.name("group")} "q"`;
        const res = await s.call("POST", g, {
          body: group(name, [user.id]),
          label: `create group (POST ${g})`,
        });
        gid = idOf(res);
        c.require("SCIM-GROUP-CREATE", gid !== undefined, {
          expected: "201 with a string id",
          actual: `${res.status} ${res.text.slice(0, 200)}`,
        });
        // RFC 7644 §3.3: the new group's URI SHALL be in the Location header and in meta.location
        // (either may be relative, RFC 7643 §2.3.7; the profile writes /Group, so a URI there is
        // taken too).
        const location = res.header("location");
        const metaLocation = ((asJson(res).meta ?? {}) as Json).location;
        const headerUri = absoluteUri(location, `${s.base}${g}`);
        const id = encodeURIComponent(gid ?? "");
        c.check(
          "SCIM-GROUP-CREATE",
          headerUri !== undefined &&
            headerUri === absoluteUri(metaLocation, `${s.base}${g}`) &&
            (headerUri.endsWith(`${g}/${id}`) || headerUri.endsWith(`/Group/${id}`)),
          {
            expected: `a Location header equal to meta.location, ending in ${g}/${id}`,
            actual: `Location ${quote(location ?? null)}, meta.location ${quote(metaLocation ?? null)}`,
            res,
          },
        );
        // A creation passes only when the new group reads back as it was sent, members included.
        const whole = await s.call("GET", `${g}/${encodeURIComponent(gid ?? "")}`, {
          label: "read the new group with its members",
        });
        const made = asJson(whole);
        const shape = groupShapeProblem(made, s.base);
        c.check(
          "SCIM-GROUP-CREATE",
          whole.status === 200 &&
            made.displayName === name &&
            sameMembers(memberIds(whole), [user.id]) &&
            shape === undefined,
          {
            expected: `200 with displayName ${name}, exactly the member ${user.id} it was created with, as a Group resource`,
            actual: `${whole.status} displayName ${quote(made.displayName ?? null)}, members ${quote(memberIds(whole))}${shape ? `; ${shape}` : ""}`,
            res: whole,
          },
        );
        // Every way of naming members leaves them out and nothing else (RFC 7644 §3.4.2.5).
        await c.each("SCIM-GROUP-GET-EXCLUDE", MEMBERS_EXCLUDED, "excludedAttributes values", async (ex) => {
          const one = await s.call("GET", `${g}/${id}?excludedAttributes=${encodeURIComponent(ex)}`, {
            label: `get group with excludedAttributes=${ex}`,
          });
          // Without a whole read to compare with, the group is judged by its id alone.
          const problem = excludeProblem(whole.status === 200 ? made : { id: gid }, one);
          return problem === undefined
            ? undefined
            : {
                message: `excludedAttributes=${ex}: ${problem}`,
                expected: "200 with the group as read whole, less its members (id and schemas always kept)",
                actual: problem,
                res: one,
              };
        });
        // members is optional (RFC 7643 §4.2, "required": false), and null is as unassigned
        // (RFC 7643 §2.5): a group of a displayName alone is created, and reads back with no
        // member. Made before the filter below, which must then pick one group of three.
        for (const [how, body] of BARE) {
          const bare = await s.call("POST", g, {
            body: { schemas: [URN.group], displayName: s.name("group"), ...body },
            label: `create group ${how}`,
          });
          const bareId = idOf(bare);
          if (bareId !== undefined) bareIds.push(bareId);
          const bareRead =
            bareId === undefined
              ? undefined
              : await s.call("GET", `${g}/${encodeURIComponent(bareId)}`, {
                  label: `read the group ${how}`,
                });
          c.check("SCIM-GROUP-CREATE", bareRead?.status === 200 && memberIds(bareRead).length === 0, {
            expected: `a group ${how}: 201 with an id, then the group with no member`,
            actual:
              bareRead === undefined
                ? `${bare.status} ${bare.text.slice(0, 200)}`
                : `${bareRead.status}, members ${quote(memberIds(bareRead))}`,
          });
        }
        const filter = encodeURIComponent(`displayName eq ${JSON.stringify(name)}`);
        const found = await s.call("GET", `${g}?filter=${filter}&excludedAttributes=members`, {
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
        for (const id of bareIds) await s.remove("Groups", id);
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
      const g = await s.groups();
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
        const created = await s.call("POST", g, {
          body: group(s.name("group"), [a.id]),
          label: "create group with member A",
        });
        gid = idOf(created);
        if (gid === undefined)
          return c.skip(`creating the group answered ${created.status}: see SCIM-GROUP-CREATE`, "dependency");
        const path = `${g}/${encodeURIComponent(gid)}`;
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
      "GET on the Group endpoint (/Groups) pages by startIndex and count: every page a whole ListResponse, never more than count, every group found once; no paging parameters start at 1, count 0 gives totalResults alone",
    requirements: ["SCIM-GROUP-LIST"],
    async run(c) {
      const s = new ScimClient(c);
      const g = await s.groups();
      const ids: string[] = [];
      try {
        for (let i = 0; i < 3; i++) {
          const id = idOf(
            await s.call("POST", g, { body: group(s.name("list")), label: `create group ${i + 1}` }),
          );
          if (id === undefined) return c.skip("creating groups failed: see SCIM-GROUP-CREATE", "dependency");
          ids.push(id);
        }
        // The /Users walk, over every group: other clients may add groups meanwhile, so no
        // total is expected. Bounded: 2 per page, at most 500 pages.
        const log = new PageLog();
        const w = await walk(s, {
          resource: g,
          query: "excludedAttributes=members",
          count: 2,
          maxPages: 500,
          log,
        });
        c.require("SCIM-GROUP-LIST", w.problem === undefined, {
          expected: "every page a ListResponse of at most 2 groups (count=2), at the startIndex asked",
          actual: w.problem ?? "",
        });
        // Without startIndex and count the list starts at 1 and holds what the provider's page
        // size allows (RFC 7644 §3.4.2.4: startIndex defaults to 1), so some of the groups.
        const first = await s.call("GET", `${g}?excludedAttributes=members`, {
          label: "list groups without paging parameters",
        });
        const body = asJson(first);
        const got = resources(first);
        if (first.status === 200 && got !== undefined)
          log.add({
            label: "the list without paging parameters",
            asked: 1,
            size: got.length,
            body,
            res: first,
          });
        c.check("SCIM-GROUP-LIST", first.status === 200 && got !== undefined && got.length > 0, {
          expected: "200, a ListResponse holding groups (this check made three)",
          actual: `${first.status}: ${got === undefined ? first.text.slice(0, 200) : `${got.length} resources, totalResults ${quote(body.totalResults ?? null)}`}`,
          res: first,
        });
        // RFC 7644 §3.4.2.4: count 0 asks for totalResults alone.
        const none = await s.call("GET", `${g}?startIndex=1&count=0&excludedAttributes=members`, {
          label: "list groups with count 0",
        });
        c.check("SCIM-GROUP-LIST", totalOnly(none, ids.length), {
          expected: `200 with totalResults of at least ${ids.length} and no resources`,
          actual: `${none.status} ${none.text.slice(0, 200)}`,
          res: none,
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
  ...groupLifecycleChecks,
];
