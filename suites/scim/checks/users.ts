import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { ScimProfile } from "../profile.js";
import { resources, ScimClient, scimError, URN } from "../scim-client.js";

type User = {
  id?: unknown;
  userName?: unknown;
  externalId?: unknown;
  emails?: unknown;
  active?: unknown;
  displayName?: unknown;
  meta?: unknown;
};
const body = (res: HttpResponse): User =>
  res.json !== null && typeof res.json === "object" ? (res.json as User) : {};
const patch = (ops: unknown[]) => ({ schemas: [URN.patch], Operations: ops });
const q = (filter: string): string => `/Users?filter=${encodeURIComponent(filter)}`;

/** Probe contract: 2xx means the user can still act; 401, 403 or 404 means it cannot. */
async function probe(s: ScimClient, id: string, label: string): Promise<HttpResponse> {
  const p = s.c.profile.probes.userAccess as
    { url?: unknown; method?: unknown; headers?: unknown } | undefined;
  if (typeof p?.url !== "string")
    return s.c.skip(
      "needs probe: suites.scim.probes.userAccess.url (a URL with {id} or {userName})",
      "needs-probe",
    );
  const url = p.url.replace("{id}", encodeURIComponent(id));
  return s.c.http.send({
    method: typeof p.method === "string" ? p.method : "GET",
    url,
    headers: (p.headers as Record<string, string> | undefined) ?? {},
    label,
  });
}

/** specs/002 area C Endpoints and States (SCIM users), with the public SCIM base rules. */
export const userChecks = [
  defineCheck<ScimProfile>({
    id: "scim.user-create-read",
    title:
      "POST /Users answers 201 with id, meta and Location, keeps externalId and the primary email; GET /Users/{id} reads it",
    requirements: ["SCIM-USER-CREATE", "SCIM-USER-REQUIRED-ATTRS", "SCIM-USER-GET"],
    async run(c) {
      const s = new ScimClient(c);
      const payload = s.user();
      const { res, id } = await s.createUser(payload);
      try {
        c.require("SCIM-USER-CREATE", res.status === 201 && id !== undefined, {
          expected: "201 with a string id",
          actual: `${res.status} ${res.text.slice(0, 200)}`,
        });
        const u = body(res);
        const meta = u.meta as { location?: unknown; resourceType?: unknown } | undefined;
        c.check("SCIM-USER-CREATE", typeof meta === "object" && meta !== null, {
          expected: "a meta object",
          actual: quote(u.meta ?? null),
        });
        const location = res.header("location");
        c.check("SCIM-USER-CREATE", location !== undefined && location.length > 0, {
          expected: "a Location header (RFC 7644 §3.3)",
          actual: "(absent)",
        });
        const got = await s.call("GET", `/Users/${encodeURIComponent(id ?? "")}`, { label: "read the user" });
        const g = body(got);
        c.check(
          "SCIM-USER-GET",
          got.status === 200 &&
            g.id === id &&
            String(g.userName).toLowerCase() === String(payload.userName).toLowerCase(),
          {
            expected: `200 with id ${id} and userName ${String(payload.userName)}`,
            actual: `${got.status} id ${quote(g.id)} userName ${quote(g.userName)}`,
            res: got,
          },
        );
        const email = (payload.emails as { value: string }[])[0]?.value ?? "";
        const emails = Array.isArray(g.emails) ? (g.emails as { value?: unknown; primary?: unknown }[]) : [];
        c.check(
          "SCIM-USER-REQUIRED-ATTRS",
          g.externalId === payload.externalId &&
            emails.some((e) => String(e.value).toLowerCase() === email.toLowerCase() && e.primary === true),
          {
            expected: `externalId ${String(payload.externalId)} and primary email ${email}`,
            actual: `externalId ${quote(g.externalId)}, emails ${quote(g.emails ?? null)}`,
            res: got,
          },
        );
      } finally {
        await s.remove("Users", id);
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.user-filters",
    title: "filters userName eq (any case), externalId eq and emails[value eq] find the user",
    requirements: ["SCIM-USER-FILTER-USERNAME", "SCIM-USER-FILTER-EXTERNALID", "SCIM-USER-FILTER-EMAIL"],
    async run(c) {
      const s = new ScimClient(c);
      const payload = s.user(s.name("Filter"));
      const { res, id } = await s.createUser(payload);
      if (id === undefined)
        return c.skip(`creating the user answered ${res.status}: see SCIM-USER-CREATE`, "dependency");
      try {
        const finds = async (reqId: string, filter: string): Promise<void> => {
          const r = await s.call("GET", q(filter), { label: `filter ${filter}` });
          const list = resources(r);
          c.check(reqId, r.status === 200 && list !== undefined && list.length === 1 && list[0]?.id === id, {
            expected: `200 with exactly the user ${id}`,
            actual: `${r.status}: ${list ? `${list.length} result(s) ${quote(list.map((x) => x.id))}` : r.text.slice(0, 200)}`,
            res: r,
          });
        };
        const userName = String(payload.userName);
        await finds("SCIM-USER-FILTER-USERNAME", `userName eq "${userName.toUpperCase()}"`);
        await finds("SCIM-USER-FILTER-USERNAME", `userName eq "${userName.toLowerCase()}"`);
        await finds("SCIM-USER-FILTER-EXTERNALID", `externalId eq "${String(payload.externalId)}"`);
        await finds(
          "SCIM-USER-FILTER-EMAIL",
          `emails[value eq "${(payload.emails as { value: string }[])[0]?.value}"]`,
        );
      } finally {
        await s.remove("Users", id);
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.user-uniqueness",
    title:
      "a taken userName, as stored or in another case, answers 409 uniqueness on create and on a PATCH that renames another user to it",
    requirements: ["SCIM-USER-UNIQUENESS"],
    async run(c) {
      const s = new ScimClient(c);
      const payload = s.user(s.name("Unique"));
      const first = await s.createUser(payload);
      if (first.id === undefined)
        return c.skip(`creating the user answered ${first.res.status}: see SCIM-USER-CREATE`, "dependency");
      const made: (string | undefined)[] = [first.id];
      const userName = String(payload.userName);
      // userName is case-insensitive (RFC 7643 §4.1.1): another spelling is the same name.
      const variant = [...userName]
        .map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()))
        .join("");
      const conflict = (what: string, res: HttpResponse): void => {
        const e = scimError(res);
        c.check("SCIM-USER-UNIQUENESS", res.status === 409 && e?.scimType === "uniqueness", {
          expected: `${what}: 409 with scimType uniqueness`,
          actual: `${res.status} scimType ${quote(e?.scimType ?? null)}`,
          res,
        });
      };
      try {
        for (const [what, name] of [
          ["the same userName", userName],
          [`the userName in another case (${variant})`, variant],
        ] as const) {
          const again = await s.createUser({
            ...payload,
            userName: name,
            externalId: `${String(payload.externalId)}-${made.length}`,
          });
          made.push(again.id);
          conflict(`a second user with ${what}`, again.res);
        }
        const other = await s.createUser();
        made.push(other.id);
        if (other.id === undefined)
          return c.skip(
            `creating a second user answered ${other.res.status}: see SCIM-USER-CREATE`,
            "dependency",
          );
        const path = `/Users/${encodeURIComponent(other.id)}`;
        const renamed = await s.call("PATCH", path, {
          body: patch([{ op: "replace", path: "userName", value: variant }]),
          label: "rename another user to the taken userName",
        });
        conflict("a PATCH renaming another user to the taken userName", renamed);
        const after = await s.call("GET", path, { label: "read the other user back" });
        c.check(
          "SCIM-USER-UNIQUENESS",
          String(body(after).userName ?? "").toLowerCase() !== userName.toLowerCase(),
          {
            expected: "the other user keeps its own userName",
            actual: `userName ${quote(body(after).userName ?? null)}`,
            res: after,
          },
        );
      } finally {
        for (const id of made.reverse()) await s.remove("Users", id);
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.user-patch-activation",
    title: "PATCH replaces an attribute, deactivates with active false, and reactivates with active true",
    requirements: ["SCIM-USER-PATCH", "SCIM-USER-DEACTIVATE", "SCIM-USER-REACTIVATE"],
    async run(c) {
      const s = new ScimClient(c);
      const { res, id } = await s.createUser();
      if (id === undefined)
        return c.skip(`creating the user answered ${res.status}: see SCIM-USER-CREATE`, "dependency");
      const path = `/Users/${encodeURIComponent(id)}`;
      try {
        const name = `Renamed ${s.name("x")}`;
        const p = await s.call("PATCH", path, {
          body: patch([{ op: "replace", path: "displayName", value: name }]),
          label: "replace displayName",
        });
        const after = await s.call("GET", path, { label: "read after PATCH" });
        c.check(
          "SCIM-USER-PATCH",
          (p.status === 200 || p.status === 204) && body(after).displayName === name,
          {
            expected: `200 (or 204), then displayName "${name}"`,
            actual: `${p.status}, then displayName ${quote(body(after).displayName)}`,
            res: after,
          },
        );
        const off = await s.call("PATCH", path, {
          body: patch([{ op: "replace", path: "active", value: false }]),
          label: "deactivate",
        });
        const readOff = await s.call("GET", path, { label: "read after deactivation" });
        c.require(
          "SCIM-USER-DEACTIVATE",
          (off.status === 200 || off.status === 204) && body(readOff).active === false,
          {
            expected: "200 (or 204), then active false",
            actual: `${off.status}, then active ${quote(body(readOff).active)}`,
            res: readOff,
          },
        );
        const on = await s.call("PATCH", path, {
          body: patch([{ op: "replace", path: "active", value: true }]),
          label: "reactivate",
        });
        const readOn = await s.call("GET", path, { label: "read after reactivation" });
        c.check(
          "SCIM-USER-REACTIVATE",
          (on.status === 200 || on.status === 204) && body(readOn).active === true,
          {
            expected: "200 (or 204), then active true",
            actual: `${on.status} ${on.status >= 400 ? on.text.slice(0, 200) : ""}, then active ${quote(body(readOn).active)}`,
            res: on.status >= 400 ? on : readOn,
          },
        );
      } finally {
        await s.remove("Users", id);
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.user-deactivation-revokes",
    title: "deactivating a user revokes its access, as the profile's probe shows",
    requirements: ["SCIM-USER-DEACTIVATE-REVOKES"],
    probe: "userAccess",
    async run(c) {
      const s = new ScimClient(c);
      const { res, id } = await s.createUser();
      if (id === undefined)
        return c.skip(`creating the user answered ${res.status}: see SCIM-USER-CREATE`, "dependency");
      try {
        const before = await probe(s, id, "probe while active");
        if (before.status < 200 || before.status > 299)
          return c.skip(
            `the probe answered ${before.status} for an active user: it cannot show a change`,
            "other",
          );
        const off = await s.call("PATCH", `/Users/${encodeURIComponent(id)}`, {
          body: patch([{ op: "replace", path: "active", value: false }]),
          label: "deactivate",
        });
        if (off.status !== 200 && off.status !== 204)
          return c.skip(`deactivation answered ${off.status}: see SCIM-USER-DEACTIVATE`, "dependency");
        const after = await probe(s, id, "probe after deactivation");
        c.check("SCIM-USER-DEACTIVATE-REVOKES", [401, 403, 404].includes(after.status), {
          expected: "the probe shows no access (401, 403 or 404)",
          actual: `${after.status} ${after.text.slice(0, 200)}`,
          res: after,
        });
      } finally {
        await s.remove("Users", id);
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.user-delete-reuse",
    title:
      "DELETE removes the user (204, then 404), and its userName can be used again by a new user that brings back nothing of the old one",
    requirements: ["SCIM-USER-DELETE", "SCIM-USER-DELETE-REUSE"],
    async run(c) {
      const s = new ScimClient(c);
      const payload = s.user();
      const { res, id } = await s.createUser(payload);
      if (id === undefined)
        return c.skip(`creating the user answered ${res.status}: see SCIM-USER-CREATE`, "dependency");
      let again: string | undefined;
      try {
        const del = await s.call("DELETE", `/Users/${encodeURIComponent(id)}`, { label: "delete" });
        const gone = await s.call("GET", `/Users/${encodeURIComponent(id)}`, { label: "read after delete" });
        // Re-use is only observable once the delete took effect.
        c.require("SCIM-USER-DELETE", del.status === 204 && gone.status === 404, {
          expected: "204, then 404",
          actual: `${del.status}, then ${gone.status}`,
          res: gone,
        });
        // The new user is sent without displayName: the deleted user's must not come back.
        const re = await s.createUser({
          ...payload,
          externalId: `${String(payload.externalId)}-again`,
          displayName: undefined,
        });
        again = re.id;
        c.require("SCIM-USER-DELETE-REUSE", re.res.status === 201, {
          expected: `201 for a new user named ${String(payload.userName)}`,
          actual: `${re.res.status} ${re.res.text.slice(0, 200)}`,
          res: re.res,
        });
        const read =
          again === undefined
            ? undefined
            : await s.call("GET", `/Users/${encodeURIComponent(again)}`, { label: "read the new user" });
        const fresh = read ? body(read) : {};
        const old = [
          ...(again === id ? [`the deleted user's id ${id}`] : []),
          ...(fresh.displayName !== undefined ? [`displayName ${quote(fresh.displayName)}`] : []),
          ...(fresh.externalId === payload.externalId ? [`externalId ${quote(fresh.externalId)}`] : []),
        ];
        c.check("SCIM-USER-DELETE-REUSE", old.length === 0, {
          expected: "a new id, and none of the deleted user's attributes",
          actual: old.join(", ") || "",
          ...(read ? { res: read } : {}),
        });
      } finally {
        await s.remove("Users", again);
        await s.remove("Users", id);
      }
    },
  }),
];
