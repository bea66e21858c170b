import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { walk } from "../list-walk.js";
import type { ScimProfile } from "../profile.js";
import { ScimClient, URN } from "../scim-client.js";
import { asJson, changedBesides, totalOnly } from "./group-shape.js";

/** The new group's id: its status is SCIM-GROUP-CREATE's to judge, so any 2xx with an id will do. */
const idOf = (res: HttpResponse): string | undefined => {
  const id = (res.json as { id?: unknown } | undefined)?.id;
  return res.status >= 200 && res.status < 300 && typeof id === "string" ? id : undefined;
};

/**
 * What a DELETE that the provider does not offer answers (RFC 9110 §15.5.6, §15.6.2), or
 * refuses by policy (§15.5.4): the Groups endpoint of the profile lists no DELETE.
 */
const NOT_OFFERED = new Set([403, 405, 501]);

/**
 * specs/002 area C writes `POST /Group` and `GET /Group/{id}` ("path written this way in the
 * profile"), where RFC 7644 has `/Groups`: tried apart, at SHOULD, and nothing else depends on it.
 */
const profilePaths = defineCheck<ScimProfile>({
  id: "scim.group-profile-paths",
  title:
    "POST /Group and GET /Group/{id}?excludedAttributes=members, the paths as the document writes them, create a group and read it",
  requirements: ["SCIM-GROUP-PROFILE-PATHS"],
  async run(c) {
    const s = new ScimClient(c);
    let gid: string | undefined;
    try {
      const name = s.name("group");
      const made = await s.call("POST", "/Group", {
        body: { schemas: [URN.group], displayName: name },
        label: "create group at the document's path (POST /Group)",
      });
      gid = idOf(made);
      // Its status is SCIM-GROUP-CREATE's to judge (201): here any 2xx with an id is the path working.
      c.require("SCIM-GROUP-PROFILE-PATHS", gid !== undefined, {
        expected: "POST /Group, as specs/002 area C writes it, creates the group (2xx with its id)",
        actual: `${made.status} ${made.text.slice(0, 200)}`,
        res: made,
      });
      const read = await s.call("GET", `/Group/${encodeURIComponent(gid ?? "")}?excludedAttributes=members`, {
        label: "read the group at the document's path (GET /Group/{id})",
      });
      const got = asJson(read);
      // What excludedAttributes leaves out is SCIM-GROUP-GET-EXCLUDE's, at the Group endpoint:
      // here only that the document's path answers with this group.
      c.check("SCIM-GROUP-PROFILE-PATHS", read.status === 200 && got.id === gid && got.displayName === name, {
        expected: `GET /Group/${gid}?excludedAttributes=members answers 200 with the group (displayName ${name})`,
        actual: `${read.status}: id ${quote(got.id ?? null)}, displayName ${quote(got.displayName ?? null)}`,
        res: read,
      });
    } finally {
      await s.remove("Groups", gid);
    }
  },
});

/** RFC 7644 §3.6 (group removal) and RFC 9865 (cursor pagination) on /Groups. */
export const groupLifecycleChecks = [
  profilePaths,
  defineCheck<ScimProfile>({
    id: "scim.group-delete",
    title:
      "DELETE /Groups/{id} answers 204, and the group then reads 404 (at its endpoint and at /Group), and a second DELETE answers 404",
    requirements: ["SCIM-GROUP-DELETE"],
    async run(c) {
      const s = new ScimClient(c);
      const g = await s.groups();
      let gid: string | undefined;
      try {
        gid = idOf(
          await s.call("POST", g, {
            body: { schemas: [URN.group], displayName: s.name("group") },
            label: "create group",
          }),
        );
        if (gid === undefined)
          return c.skip("creating the group failed: see SCIM-GROUP-CREATE", "dependency");
        const path = `${g}/${encodeURIComponent(gid)}`;
        const del = await s.call("DELETE", path, { label: "delete the group" });
        if (NOT_OFFERED.has(del.status))
          return c.skip(`DELETE of a group answered ${del.status}: group removal not offered`, "not-offered");
        c.require("SCIM-GROUP-DELETE", del.status === 204, {
          expected: "204 No Content (RFC 7644 §3.6)",
          actual: `${del.status} ${del.text.slice(0, 200)}`,
        });
        // RFC 7644 §3.6: 404 for every operation on the deleted resource, under either path,
        // and a second DELETE is one of them.
        for (const p of new Set([path, `/Group/${encodeURIComponent(gid)}`])) {
          const after = await s.call("GET", p, { label: `read the deleted group (${p.split("/")[1]})` });
          c.check("SCIM-GROUP-DELETE", after.status === 404, {
            expected: `GET ${p} answers 404 after the DELETE`,
            actual: `${after.status} ${after.text.slice(0, 200)}`,
            res: after,
            // The group is still there: the state after the DELETE is wrong, whatever the status.
            kind: "wrong-value",
          });
        }
        const again = await s.call("DELETE", path, { label: "delete the deleted group again" });
        c.check("SCIM-GROUP-DELETE", again.status === 404, {
          expected: `a second DELETE ${path} answers 404`,
          actual: `${again.status} ${again.text.slice(0, 200)}`,
          res: again,
        });
      } finally {
        await s.remove("Groups", gid);
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.group-list-cursor",
    title:
      "when ServiceProviderConfig offers cursor pagination, walking the nextCursor of /Groups yields each group once",
    requirements: ["SCIM-LIST-CURSOR"],
    async run(c) {
      const s = new ScimClient(c);
      const g = await s.groups();
      const spc = await s.call("GET", "/ServiceProviderConfig", { label: "ServiceProviderConfig" });
      if ((spc.json as { pagination?: { cursor?: unknown } } | undefined)?.pagination?.cursor !== true)
        return c.skip("not offered: ServiceProviderConfig does not set pagination.cursor", "not-offered");
      const ids: string[] = [];
      try {
        for (let i = 0; i < 3; i++) {
          const id = idOf(
            await s.call("POST", g, {
              body: { schemas: [URN.group], displayName: s.name("cursor") },
              label: `create group ${i + 1}`,
            }),
          );
          if (id === undefined) return c.skip("creating groups failed: see SCIM-GROUP-CREATE", "dependency");
          ids.push(id);
        }
        // Other clients may add groups meanwhile: no total is expected. Bounded as the index walk.
        for (const count of [1, 2]) {
          const w = await walk(s, {
            resource: g,
            query: "excludedAttributes=members",
            count,
            cursor: true,
            maxPages: 500,
          });
          const counts = ids.map((id) => w.ids.filter((x) => x === id).length);
          c.check("SCIM-LIST-CURSOR", w.problem === undefined && counts.every((n) => n === 1), {
            expected: `count=${count}: each group this check created listed once`,
            actual: w.problem ?? ids.map((id, i) => `${id}: ${counts[i]}`).join(", "),
          });
        }
        // count 0 asks for totalResults alone (RFC 7644 §3.4.2.4), by cursor too.
        const zero = await s.call("GET", `${g}?cursor=&count=0&excludedAttributes=members`, {
          label: "first cursor page with count 0",
        });
        c.check("SCIM-LIST-CURSOR", totalOnly(zero, ids.length), {
          expected: `200 with totalResults of at least ${ids.length} and no resources`,
          actual: `${zero.status} ${zero.text.slice(0, 200)}`,
          res: zero,
        });
        // A filter that selects nothing walks to one empty page (RFC 9865: no nextCursor then).
        const none = await walk(s, {
          resource: g,
          query: `filter=${encodeURIComponent(`displayName eq "${s.name("none")}"`)}`,
          count: 2,
          cursor: true,
          expectTotal: 0,
          maxPages: 2,
        });
        if (none.problem?.startsWith("page 1 answered 400"))
          return c.note(`the displayName filter is refused (see SCIM-GROUP-FILTER): ${none.problem}`);
        c.check("SCIM-LIST-CURSOR", none.problem === undefined && none.ids.length === 0, {
          expected: "a filter that matches no group: one page, totalResults 0, no resources",
          actual: none.problem ?? `${quote(none.ids)} listed`,
        });
      } finally {
        for (const id of ids) await s.remove("Groups", id);
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.group-exclude-other",
    title:
      "GET /Groups/{id}?excludedAttributes=displayName leaves displayName out and every other attribute, members included, in",
    requirements: ["SCIM-GROUP-EXCLUDED-ATTRIBUTES"],
    async run(c) {
      const s = new ScimClient(c);
      const g = await s.groups();
      const user = await s.createUser();
      if (user.id === undefined)
        return c.skip(`creating a member answered ${user.res.status}: see SCIM-USER-CREATE`, "dependency");
      let gid: string | undefined;
      try {
        gid = idOf(
          await s.call("POST", g, {
            body: { schemas: [URN.group], displayName: s.name("group"), members: [{ value: user.id }] },
            label: "create group with a member",
          }),
        );
        if (gid === undefined)
          return c.skip("creating the group failed: see SCIM-GROUP-CREATE", "dependency");
        const path = `${g}/${encodeURIComponent(gid)}`;
        const whole = await s.call("GET", path, { label: "read the group whole" });
        if (whole.status !== 200) return c.skip(`reading the group answered ${whole.status}`, "dependency");
        const all = asJson(whole);
        const part = await s.call("GET", `${path}?excludedAttributes=displayName`, {
          label: "read the group without displayName",
        });
        const got = asJson(part);
        // displayName is returned "default" (RFC 7643 §4.2, §8.7.1), so it may be left out.
        const kept = changedBesides(all, got, "displayName");
        c.check(
          "SCIM-GROUP-EXCLUDED-ATTRIBUTES",
          part.status === 200 && got.displayName === undefined && kept.length === 0,
          {
            expected: "200 with the group as read whole, less its displayName",
            actual: `${part.status}: displayName ${quote(got.displayName ?? null)}${kept.length > 0 ? `; changed or left out: ${kept.join(", ")}` : ""}`,
            res: part,
          },
        );
      } finally {
        await s.remove("Groups", gid);
        await s.remove("Users", user.id);
      }
    },
  }),
];
