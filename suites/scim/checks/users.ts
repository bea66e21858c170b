import { defineCheck, type Details } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import { SetupError } from "../../../src/engine/errors.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { ScimProfile } from "../profile.js";
import { absoluteUri, resources, ScimClient, scimError, URN } from "../scim-client.js";

type User = {
  id?: unknown;
  userName?: unknown;
  externalId?: unknown;
  emails?: unknown;
  active?: unknown;
  displayName?: unknown;
  meta?: unknown;
};
export const body = (res: HttpResponse): User =>
  res.json !== null && typeof res.json === "object" ? (res.json as User) : {};
export const patch = (ops: unknown[]) => ({ schemas: [URN.patch], Operations: ops });
const q = (filter: string): string => `/Users?filter=${encodeURIComponent(filter)}`;

/** Probe contract: 2xx means the user can still act; 401, 403 or 404 means it cannot. */
async function probe(s: ScimClient, id: string, label: string): Promise<HttpResponse> {
  const p = s.c.profile.probes.userAccess as
    { url?: unknown; method?: unknown; headers?: unknown } | undefined;
  if (typeof p?.url !== "string")
    return s.c.skip("needs probe: suites.scim.probes.userAccess.url (a URL with {id})", "needs-probe");
  const url = p.url.replace("{id}", encodeURIComponent(id));
  return s.c.http.send({
    method: typeof p.method === "string" ? p.method : "GET",
    url,
    headers: (p.headers as Record<string, string> | undefined) ?? {},
    label,
  });
}

/** A user payload with the enterprise extension (RFC 7643 §4.3). */
export function enterpriseUser(s: ScimClient): Record<string, unknown> {
  return s.user(undefined, {
    schemas: [URN.user, URN.enterprise],
    [URN.enterprise]: { employeeNumber: s.name("emp"), department: "Provisioning" },
  });
}

/** Whether the User resource type lists the enterprise extension (RFC 7643 §6 schemaExtensions). */
export async function offersEnterprise(s: ScimClient): Promise<boolean> {
  const res = await s.call("GET", "/ResourceTypes", { label: "ResourceTypes (enterprise extension?)" });
  const user = (resources(res) ?? []).find((r) => r.name === "User");
  const ext = Array.isArray(user?.schemaExtensions) ? (user.schemaExtensions as { schema?: unknown }[]) : [];
  return res.status === 200 && ext.some((e) => e.schema === URN.enterprise);
}

/** A user a PATCH step works on: its path, the attributes its create payload set, and its last read. */
interface Patched {
  readonly path: string;
  readonly attrs: readonly string[];
  readonly before: HttpResponse;
}

/**
 * Creates a user and reads it back: the read, not the payload, is what a PATCH must leave
 * unchanged (how the server stores a created user is SCIM-USER-CREATE's and
 * SCIM-USER-REQUIRED-ATTRS's to judge). Skips the check when either step fails.
 */
async function startUser(s: ScimClient, made: string[], enterprise = false): Promise<Patched> {
  const base = enterprise ? enterpriseUser(s) : s.user();
  // Two emails, so that a PATCH path selecting one by its type is seen to leave the other.
  const emails = base.emails as Record<string, unknown>[];
  const payload: Record<string, unknown> = {
    ...base,
    emails: [...emails, { value: `home-${String(emails[0]?.value)}`, type: "home", primary: false }],
  };
  const { res, id } = await s.createUser(payload);
  if (id === undefined)
    return s.c.skip(`creating the user answered ${res.status}: see SCIM-USER-CREATE`, "dependency");
  made.push(id);
  const path = `/Users/${encodeURIComponent(id)}`;
  const before = await s.call("GET", path, { label: "read the user before PATCH" });
  if (before.status !== 200)
    return s.c.skip(`reading the new user answered ${before.status}: see SCIM-USER-GET`, "dependency");
  const attrs = Object.keys(payload).filter((k) => k !== "schemas" && payload[k] !== undefined);
  return { path, attrs, before };
}

/**
 * A value as comparable text: object members in name order and multi-valued attributes as
 * sets (RFC 7643 §2.4 gives their values no order); userName in lower case, since it is
 * case-insensitive (RFC 7643 §4.1.1). The JSON is bounded when parsed, so recursion is too.
 */
export function canonical(v: unknown, attr = ""): string {
  if (attr === "userName" && typeof v === "string") return JSON.stringify(v.toLowerCase());
  if (Array.isArray(v))
    return `[${v
      .map((x) => canonical(x))
      .sort()
      .join(",")}]`;
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    const members = Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`);
    return `{${members.join(",")}}`;
  }
  return v === undefined ? "absent" : JSON.stringify(v);
}

/**
 * Where a read departs from what was sent: every member `sent` gives must read back with the
 * same value (multi-valued: each sent value among the values read; a server may add members
 * of its own, RFC 7643 §2.2). userName and email values compare without case (RFC 7643
 * §4.1.1, §4.1.2). Bounded like `canonical`.
 */
export function missing(sent: unknown, read: unknown, at: string): string[] {
  const noCase = at === "userName" || /^emails(\[\d+\])?\.value$/.test(at);
  if (typeof sent === "string" && typeof read === "string" && noCase)
    return sent.toLowerCase() === read.toLowerCase() ? [] : [`${at}: ${quote(read)}, sent ${quote(sent)}`];
  if (Array.isArray(sent)) {
    if (!Array.isArray(read)) return [`${at}: ${quote(read ?? null)}, sent ${quote(sent)}`];
    return sent.flatMap((v, i) =>
      read.some((r) => missing(v, r, `${at}[${i}]`).length === 0)
        ? []
        : [`${at}: no value like ${quote(v)} among ${quote(read)}`],
    );
  }
  if (sent !== null && typeof sent === "object") {
    if (read === null || typeof read !== "object" || Array.isArray(read))
      return [`${at}: ${quote(read ?? null)}, sent ${quote(sent)}`];
    const r = read as Record<string, unknown>;
    return Object.entries(sent as Record<string, unknown>).flatMap(([k, v]) =>
      missing(v, r[k], at === "" ? k : `${at}.${k}`),
    );
  }
  return sent === read ? [] : [`${at}: ${quote(read ?? null)}, sent ${quote(sent)}`];
}

const withoutSchemas = (p: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(p).filter(([k]) => k !== "schemas"));

/** The attributes among `attrs` that differ between two reads, as "attr: before → after". */
export function changes(before: HttpResponse, after: HttpResponse, attrs: readonly string[]): string[] {
  const b = body(before) as Record<string, unknown>;
  const a = body(after) as Record<string, unknown>;
  return attrs
    .filter((k) => canonical(b[k], k) !== canonical(a[k], k))
    .map((k) => `${k}: ${quote(b[k])} → ${quote(a[k])}`);
}

/** What one PATCH step showed: whether it met its rule, and whether `attr` took the value. */
interface Step {
  readonly ok: boolean;
  readonly changed: boolean;
  readonly read: HttpResponse;
  readonly details: Details;
}

/**
 * One PATCH replace of `attr` (RFC 7644 §3.5.2.3; public-spec-facts §5 for active), judged
 * on the user read back: `attr` has the new value and every other attribute the create
 * payload set is as the read before the PATCH showed it (a PATCH is not a PUT: RFC 7644
 * §3.5.2 modifies only what its operations name).
 */
async function patchStep(
  s: ScimClient,
  u: Patched,
  attr: "displayName" | "active",
  value: string | boolean,
  label: string,
): Promise<Step> {
  return replaceStep(s, u, { path: attr, top: attr, value, expect: () => value }, label);
}

/**
 * A replace of `path` (an attribute, a sub-attribute or a value-filtered one, RFC 7644
 * §3.5.2.3): the attribute `top` must read back as `expect` makes of its value before, and
 * every other attribute as before.
 */
interface Replace {
  readonly path: string;
  readonly top: string;
  readonly value: unknown;
  readonly expect: (before: unknown) => unknown;
}

async function replaceStep(s: ScimClient, u: Patched, r: Replace, label: string): Promise<Step> {
  const was = (body(u.before) as Record<string, unknown>)[r.top];
  const want = r.expect(was);
  const p = await s.call("PATCH", u.path, {
    body: patch([{ op: "replace", path: r.path, value: r.value }]),
    label,
  });
  const read = await s.call("GET", u.path, { label: `read after ${label}` });
  // A read that did not show the attribute before (SCIM-USER-GET's finding) cannot show the
  // change either: then the resource the PATCH answered with (RFC 7644 §3.5.2: 200 and the
  // resource) shows it.
  const unseen = was === undefined && u.attrs.includes(r.top) && p.status === 200;
  const got = (body(unseen ? p : read) as Record<string, unknown>)[r.top];
  const changed =
    (p.status === 200 || p.status === 204) &&
    read.status === 200 &&
    canonical(got, r.top) === canonical(want, r.top);
  const others = u.attrs.filter((k) => k !== r.top);
  const lost = read.status === 200 ? changes(u.before, read, others) : [];
  const refused = p.status >= 400 ? ` ${p.text.slice(0, 200)}` : "";
  const actual = `${p.status}${refused}, then ${read.status} with ${r.top} ${quote(got ?? null)}`;
  return {
    ok: changed && lost.length === 0,
    changed,
    read,
    details: {
      expected: `200 (or 204), then ${r.top} ${quote(want ?? null)} and ${others.join(", ")} as before`,
      actual: lost.length > 0 ? `${actual}; also changed: ${lost.join("; ")}` : actual,
      res: p.status >= 400 ? p : read,
    },
  };
}

/**
 * The replaces an Identity Service sends to keep a user in step (RFC 7644 §3.5.2.3): each
 * attribute the user was created with, a name part, and the work email's value by a value
 * filter. `tag` keeps a new userName within the run's resources.
 */
function syncReplaces(tag: string, enterprise: boolean): readonly Replace[] {
  const obj = (v: unknown): Record<string, unknown> =>
    v !== null && typeof v === "object" ? (v as Record<string, unknown>) : {};
  const email = `${tag}moved@example.test`;
  return [
    { path: "externalId", top: "externalId", value: `${tag}ext`, expect: () => `${tag}ext` },
    { path: "userName", top: "userName", value: `${tag}renamed`, expect: () => `${tag}renamed` },
    {
      // A complex attribute replaced by some of its sub-attributes: the others stay (RFC 7644 §3.5.2.3).
      path: "name",
      value: { familyName: `Lovelace-${tag}` },
      expect: (n) => ({ ...obj(n), familyName: `Lovelace-${tag}` }),
      top: "name",
    },
    {
      path: "name.givenName",
      top: "name",
      value: "Grace",
      expect: (n) => ({ ...obj(n), givenName: "Grace" }),
    },
    {
      path: 'emails[type eq "work"].value',
      top: "emails",
      value: email,
      expect: (es) =>
        (Array.isArray(es) ? es : []).map((e) => (obj(e).type === "work" ? { ...obj(e), value: email } : e)),
    },
    {
      // RFC 7644 §3.5.2: setting one value's primary to true sets it false on the others.
      path: 'emails[type eq "home"].primary',
      top: "emails",
      value: true,
      expect: (es) =>
        (Array.isArray(es) ? es : []).map((e) =>
          obj(e).type === "home"
            ? { ...obj(e), primary: true }
            : obj(e).primary === true
              ? { ...obj(e), primary: false }
              : e,
        ),
    },
    ...(enterprise
      ? [
          {
            path: `${URN.enterprise}:department`,
            top: URN.enterprise,
            value: "Audit",
            expect: (x: unknown) => ({ ...obj(x), department: "Audit" }),
          },
          {
            // A replace of an attribute not yet set adds it (RFC 7644 §3.5.2.3).
            path: `${URN.enterprise}:costCenter`,
            top: URN.enterprise,
            value: "CC-7",
            expect: (x: unknown) => ({ ...obj(x), costCenter: "CC-7" }),
          },
        ]
      : []),
  ];
}

/** specs/002 area C Endpoints and States (SCIM users), with the public SCIM base rules. */
export const userChecks = [
  defineCheck<ScimProfile>({
    id: "scim.user-create-read",
    title:
      "POST /Users answers 201 with id, meta and Location, keeps externalId and the primary email; GET /Users/{id} reads every attribute it was created with",
    requirements: ["SCIM-USER-CREATE", "SCIM-USER-REQUIRED-ATTRS", "SCIM-USER-GET"],
    async run(c) {
      const s = new ScimClient(c);
      const enterprise = await offersEnterprise(s);
      const payload = enterprise ? enterpriseUser(s) : s.user();
      const { res, id } = await s.createUser(payload);
      const made: (string | undefined)[] = [id];
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
        // RFC 7644 §3.3: the Location header and meta.location both give the new resource's URI.
        const path = `/Users/${encodeURIComponent(id ?? "")}`;
        // Either may be a relative reference (RFC 7643 §2.3.7; RFC 9110 §10.2.2): compared resolved.
        const metaUri = absoluteUri(meta?.location, `${s.base}/Users`);
        const headerUri = absoluteUri(location, `${s.base}/Users`);
        c.check(
          "SCIM-USER-CREATE",
          metaUri !== undefined &&
            metaUri === headerUri &&
            metaUri.endsWith(path) &&
            meta?.resourceType === "User",
          {
            expected: `meta.location equal to the Location header, ending in ${path}, and meta.resourceType User`,
            actual: `Location ${quote(location ?? null)}, meta.location ${quote(meta?.location ?? null)}, meta.resourceType ${quote(meta?.resourceType ?? null)}`,
          },
        );
        const got = await s.call("GET", path, { label: "read the user" });
        const g = body(got);
        // Every attribute the user was created with reads back (RFC 7644 §3.3, §3.4.1).
        const lost = got.status === 200 ? missing(withoutSchemas(payload), g, "") : [];
        c.check("SCIM-USER-GET", got.status === 200 && g.id === id && lost.length === 0, {
          expected: `200 with id ${id} and every attribute the user was created with`,
          actual: `${got.status} id ${quote(g.id)}${lost.length > 0 ? `; ${lost.slice(0, 4).join("; ")}` : ""}`,
          res: got,
        });
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
        // A user with only what the profile requires (no name, displayName, active, email type
        // or primary: RFC 7643 §4.1 makes them optional) is created and read back too.
        const minName = s.name("min");
        const minimal = {
          schemas: [URN.user],
          userName: minName,
          externalId: `ext-${minName}`,
          emails: [{ value: `${minName}@example.test` }],
        };
        const min = await s.createUser(minimal);
        made.push(min.id);
        c.check("SCIM-USER-CREATE", min.id !== undefined, {
          expected: "201 with a string id for a user without the optional attributes",
          actual: `${min.res.status} ${min.res.text.slice(0, 200)}`,
          res: min.res,
        });
        if (min.id !== undefined) {
          const back = await s.call("GET", `/Users/${encodeURIComponent(min.id)}`, {
            label: "read the minimal user",
          });
          const b = body(back) as Record<string, unknown>;
          const gone = back.status === 200 ? missing(withoutSchemas(minimal), b, "") : [];
          const schemas = Array.isArray(b.schemas) ? (b.schemas as unknown[]) : [];
          c.check("SCIM-USER-GET", back.status === 200 && schemas.includes(URN.user) && gone.length === 0, {
            expected: `200 with schemas naming ${URN.user} and every attribute the user was created with`,
            actual: `${back.status} schemas ${quote(b.schemas ?? null)}${gone.length > 0 ? `; ${gone.slice(0, 4).join("; ")}` : ""}`,
            res: back,
          });
        }
        // The enterprise extension, when the User resource type offers it (RFC 7643 §4.3, §6).
        if (enterprise) {
          const ext = (g as Record<string, unknown>)[URN.enterprise];
          const schemas = Array.isArray((g as Record<string, unknown>).schemas)
            ? ((g as Record<string, unknown>).schemas as unknown[])
            : [];
          c.check("SCIM-USER-REQUIRED-ATTRS", schemas.includes(URN.enterprise) && ext !== undefined, {
            expected: `schemas naming ${URN.enterprise}, and its attributes`,
            actual: `schemas ${quote(schemas)}, extension ${quote(ext ?? null)}`,
            res: got,
          });
        }
      } finally {
        for (const m of made.reverse()) await s.remove("Users", m);
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.user-filters",
    title:
      "filters userName eq (any case), externalId eq and emails[value eq] (any case) find the user, also beside a user without those attributes",
    requirements: ["SCIM-USER-FILTER-USERNAME", "SCIM-USER-FILTER-EXTERNALID", "SCIM-USER-FILTER-EMAIL"],
    async run(c) {
      const s = new ScimClient(c);
      const payload = s.user(s.name("Filter"));
      const { res, id } = await s.createUser(payload);
      if (id === undefined)
        return c.skip(`creating the user answered ${res.status}: see SCIM-USER-CREATE`, "dependency");
      // A neighbour whose userName and externalId start with the user's and whose email ends
      // with the user's: a filter that matches too much (a prefix, a substring) finds both.
      const userName = String(payload.userName);
      const decoy = await s.createUser(
        s.user(`${userName}0`, {
          emails: [{ value: `x${userName}@example.test`, type: "work", primary: true }],
        }),
      );
      try {
        if (decoy.id === undefined)
          return c.skip(
            `creating a second user answered ${decoy.res.status}: see SCIM-USER-CREATE`,
            "dependency",
          );
        // Said with every expectation once the user without those attributes exists.
        let beside = "";
        const finds = async (reqId: string, filter: string, why = ""): Promise<void> => {
          const r = await s.call("GET", q(filter), { label: `filter ${filter}` });
          const list = resources(r);
          c.check(reqId, r.status === 200 && list !== undefined && list.length === 1 && list[0]?.id === id, {
            expected: `200 with exactly the user ${id}${why}${beside}`,
            actual: `${r.status}: ${list ? `${list.length} result(s) ${quote(list.map((x) => x.id))}` : r.text.slice(0, 200)}`,
            res: r,
          });
        };
        // A user with a userName alone: a filter on an attribute some users lack must still
        // answer (RFC 7644 §3.4.2.2: such a user simply does not match). One provider answered
        // 400 with a runtime error to every emails filter while any user had no emails. The
        // profile expects an email on every user, so a provider may refuse this user: then the
        // filters are judged without it.
        const sparse = await s.createUser({ schemas: [URN.user], userName: s.name("FilterSparse") });
        if (sparse.id === undefined)
          c.note(
            `a user with a userName alone was refused (${sparse.res.status}): the filters are not tried beside a user lacking their attributes`,
          );
        else
          beside = `, while the user ${sparse.id} without externalId or emails exists (it simply does not match)`;
        try {
          await finds("SCIM-USER-FILTER-USERNAME", `userName eq "${userName.toUpperCase()}"`);
          await finds("SCIM-USER-FILTER-USERNAME", `userName eq "${userName.toLowerCase()}"`);
          await finds("SCIM-USER-FILTER-EXTERNALID", `externalId eq "${String(payload.externalId)}"`);
          const email = (payload.emails as { value: string }[])[0]?.value ?? "";
          await finds("SCIM-USER-FILTER-EMAIL", `emails[value eq "${email}"]`);
          // RFC 7643 §4.1.2 and the User schema of §8.7.1: emails.value is caseExact false, so
          // eq matches the address in any case (RFC 7644 §3.4.2.2).
          await finds(
            "SCIM-USER-FILTER-EMAIL",
            `emails[value eq "${email.toUpperCase()}"]`,
            " (emails.value is caseExact false: eq ignores case)",
          );
        } finally {
          await s.remove("Users", sparse.id);
        }
      } finally {
        await s.remove("Users", decoy.id);
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
    title:
      "PATCH replaces an attribute, deactivates with active false, and reactivates with active true, each leaving every other attribute as it was",
    requirements: ["SCIM-USER-PATCH", "SCIM-USER-DEACTIVATE", "SCIM-USER-REACTIVATE"],
    async run(c) {
      const s = new ScimClient(c);
      const made: string[] = [];
      try {
        // Two users: a PATCH that damaged the first must not hide what deactivation does.
        const enterprise = await offersEnterprise(s);
        const renamed = await startUser(s, made, enterprise);
        const user = await startUser(s, made, enterprise);
        const name = `Renamed ${s.name("x")}`;
        const p = await patchStep(s, renamed, "displayName", name, "replace displayName");
        c.check("SCIM-USER-PATCH", p.ok, p.details);
        // Every other attribute the user carries, each judged against the read before it.
        let last = p.read;
        for (const r of syncReplaces(s.name("p"), enterprise)) {
          const step = await replaceStep(s, { ...renamed, before: last }, r, `replace ${r.path}`);
          c.check("SCIM-USER-PATCH", step.ok, step.details);
          if (step.read.status === 200) last = step.read;
        }
        const off = await patchStep(s, user, "active", false, "deactivate");
        // Reactivation needs a deactivated user, so only the active flag stops the check.
        if (off.changed) c.check("SCIM-USER-DEACTIVATE", off.ok, off.details);
        else c.require("SCIM-USER-DEACTIVATE", false, off.details);
        // Judged against the deactivated user as read: deactivation's own changes are its own.
        const on = await patchStep(s, { ...user, before: off.read }, "active", true, "reactivate");
        c.check("SCIM-USER-REACTIVATE", on.ok, on.details);
      } finally {
        for (const id of made.reverse()) await s.remove("Users", id);
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.user-deactivation-revokes",
    title:
      "deactivating a user revokes its access, also through a later PATCH (a user created inactive has none), and reactivating it lets it act again, as the profile's probe shows",
    requirements: ["SCIM-USER-DEACTIVATE-REVOKES", "SCIM-USER-REACTIVATE"],
    probe: "userAccess",
    async run(c) {
      const s = new ScimClient(c);
      const { res, id } = await s.createUser();
      if (id === undefined)
        return c.skip(`creating the user answered ${res.status}: see SCIM-USER-CREATE`, "dependency");
      try {
        // A probe that refuses a user just created (and active) cannot show any change: the
        // profile's probe is wrong, not the provider. Found once, it stops the other probes too.
        await c.setup("scim.probes.userAccess", async () => {
          const b = await probe(s, id, "probe while active");
          if (b.status < 200 || b.status > 299)
            throw new SetupError(
              "suites.scim.probes.userAccess",
              `the probe answered ${b.status} for a user just created and active (${quote(b.text, 120)}); it must answer 2xx while the user can act, and 401, 403 or 404 once it cannot`,
            );
          return b;
        });
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
        // Still deactivated after another change: access stays revoked (specs/002 area C States).
        const renamed = await s.call("PATCH", `/Users/${encodeURIComponent(id)}`, {
          body: patch([{ op: "replace", path: "displayName", value: `Deactivated ${s.name("d")}` }]),
          label: "replace displayName of the deactivated user",
        });
        if (renamed.status === 200 || renamed.status === 204) {
          const still = await probe(s, id, "probe after a PATCH of the deactivated user");
          c.check("SCIM-USER-DEACTIVATE-REVOKES", [401, 403, 404].includes(still.status), {
            expected:
              "the probe still shows no access (401, 403 or 404) after a PATCH that leaves the user inactive",
            actual: `${still.status} ${still.text.slice(0, 200)}`,
            res: still,
          });
        }
        // A user created inactive is in the deactivated state from the start: no access either.
        const idle = await s.createUser(s.user(undefined, { active: false }));
        if (idle.id !== undefined) {
          try {
            const none = await probe(s, idle.id, "probe of a user created inactive");
            c.check("SCIM-USER-DEACTIVATE-REVOKES", [401, 403, 404].includes(none.status), {
              expected: "the probe shows no access (401, 403 or 404) for a user created with active false",
              actual: `${none.status} ${none.text.slice(0, 200)}`,
              res: none,
            });
          } finally {
            await s.remove("Users", idle.id);
          }
        }
        // specs/002 area C States: reactivation makes the user active again, so able to act.
        const on = await s.call("PATCH", `/Users/${encodeURIComponent(id)}`, {
          body: patch([{ op: "replace", path: "active", value: true }]),
          label: "reactivate",
        });
        if (on.status !== 200 && on.status !== 204)
          return c.skipOnly(
            "SCIM-USER-REACTIVATE",
            `reactivation answered ${on.status}: see SCIM-USER-REACTIVATE in scim.user-patch-activation`,
            "dependency",
          );
        const again = await probe(s, id, "probe after reactivation");
        c.check("SCIM-USER-REACTIVATE", again.status >= 200 && again.status <= 299, {
          expected:
            "the probe shows the reactivated user able to act again (2xx), as it did before deactivation",
          actual: `${again.status} ${again.text.slice(0, 200)}`,
          res: again,
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
