import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { ScimProfile } from "../profile.js";
import { ScimClient, scimError, URN } from "../scim-client.js";
import { body, changes, enterpriseUser, missing, offersEnterprise, patch } from "./users.js";

/** A PatchOp body a service provider cannot apply as written, and why. */
interface Invalid {
  readonly what: string;
  readonly body: unknown;
  /**
   * The scimTypes of RFC 7644 §3.12 (Table 9) that describe the mistake; one of them, when
   * the error gives a scimType. A remove without a path must give noTarget (§3.5.2.2).
   */
  readonly scimTypes: readonly string[];
  readonly noTarget?: true;
}

const SYNTAX = ["invalidSyntax", "invalidValue"];
const PATH = ["invalidPath", "invalidSyntax", "invalidFilter"];
const VALUE = ["invalidValue", "invalidSyntax"];

/**
 * PatchOps that break RFC 7644 §3.5.2: its message schema (Operations holds one or more
 * operation objects, each with op add, remove or replace), the PATH grammar (§3.10), the value
 * an add needs (§3.5.2.1), the path a remove needs (§3.5.2.2), or the type RFC 7643 gives the
 * attribute (§4.1.1: userName non-empty; §2.3.2 boolean; §2.3.8 complex). The last two mix a
 * valid operation with an invalid one: the request is atomic, so the valid one must not apply.
 */
function invalidPatches(enterprise: boolean): readonly Invalid[] {
  const op = (o: Record<string, unknown>): unknown => patch([o]);
  const badPath = (path: string): Invalid => ({
    what: `a path outside the PATH grammar (${path})`,
    body: op({ op: "replace", path, value: "x@example.test" }),
    scimTypes: PATH,
  });
  return [
    { what: "no Operations", body: { schemas: [URN.patch] }, scimTypes: SYNTAX },
    { what: "an empty Operations array", body: patch([]), scimTypes: SYNTAX },
    { what: "an operation that is not an object", body: patch([null]), scimTypes: SYNTAX },
    { what: "an operation without op", body: op({ path: "displayName", value: "x" }), scimTypes: SYNTAX },
    {
      what: "an unknown op",
      body: op({ op: "frobnicate", path: "displayName", value: "x" }),
      scimTypes: SYNTAX,
    },
    {
      what: "a path that is not a string",
      body: op({ op: "replace", path: 7, value: "x" }),
      scimTypes: PATH,
    },
    { what: "an empty path", body: op({ op: "replace", path: "", value: "x" }), scimTypes: PATH },
    badPath('emails[type eq "work"'),
    badPath('emails[type eq "work"]value'),
    badPath('emails[type eq "work"]x.value'),
    badPath('emails[type eq "work"].value.type'),
    { what: "add without a value", body: op({ op: "add", path: "displayName" }), scimTypes: VALUE },
    ...(enterprise
      ? [
          {
            what: "add of an enterprise attribute without a value",
            body: op({ op: "add", path: `${URN.enterprise}:department` }),
            scimTypes: VALUE,
          },
        ]
      : []),
    {
      what: "a replace without a path whose value is not an object",
      body: op({ op: "replace", value: 7 }),
      scimTypes: VALUE,
    },
    { what: "remove without a path", body: op({ op: "remove" }), scimTypes: ["noTarget"], noTarget: true },
    {
      what: "active set to a value that is not a boolean",
      body: op({ op: "replace", path: "active", value: "maybe" }),
      scimTypes: VALUE,
    },
    {
      what: "userName set to an empty string",
      body: op({ op: "replace", path: "userName", value: "" }),
      scimTypes: ["invalidValue"],
    },
    {
      what: "the complex name set to a string",
      body: op({ op: "replace", path: "name", value: "Ada" }),
      scimTypes: VALUE,
    },
    {
      what: "a valid displayName replace followed by an unknown op",
      body: patch([
        { op: "replace", path: "displayName", value: "changed by a refused PATCH" },
        { op: "frobnicate", path: "displayName", value: "x" },
      ]),
      scimTypes: SYNTAX,
    },
    {
      what: "a valid displayName replace followed by a remove without a path",
      body: patch([
        { op: "replace", path: "displayName", value: "changed by a refused PATCH" },
        { op: "remove" },
      ]),
      scimTypes: ["noTarget"],
      noTarget: true,
    },
  ];
}

/** specs/002 area C Endpoints (PATCH /Users/{id}), with RFC 7644 §3.5.2 for what a PATCH is. */
export const userPatchChecks = [
  defineCheck<ScimProfile>({
    id: "scim.user-patch-invalid",
    title:
      "a PatchOp that cannot be applied as written answers 400 (remove without a path: noTarget) and leaves the user as it was",
    requirements: ["SCIM-USER-PATCH-INVALID"],
    async run(c) {
      const s = new ScimClient(c);
      const enterprise = await offersEnterprise(s);
      const { res, id } = await s.createUser(enterprise ? enterpriseUser(s) : s.user());
      if (id === undefined)
        return c.skip(`creating the user answered ${res.status}: see SCIM-USER-CREATE`, "dependency");
      try {
        const path = `/Users/${encodeURIComponent(id)}`;
        let before = await s.call("GET", path, { label: "read the user before the PATCHes" });
        if (before.status !== 200)
          return c.skip(`reading the new user answered ${before.status}: see SCIM-USER-GET`, "dependency");
        // Every attribute the read shows, but meta (RFC 7643 §3.1: the provider's own).
        const attrs = Object.keys(body(before)).filter((k) => k !== "meta");
        await c.each("SCIM-USER-PATCH-INVALID", invalidPatches(enterprise), "refused PATCH", async (inv) => {
          const p = await s.call("PATCH", path, { body: inv.body, label: `PATCH with ${inv.what}` });
          const after = await s.call("GET", path, { label: `read after the PATCH with ${inv.what}` });
          const changed = after.status === 200 ? changes(before, after, attrs) : [];
          const scimType = scimError(p)?.scimType;
          const typeOk =
            inv.noTarget === true
              ? scimType === "noTarget"
              : scimType === undefined || (typeof scimType === "string" && inv.scimTypes.includes(scimType));
          const ok = p.status === 400 && typeOk && after.status === 200 && changed.length === 0;
          // A change that went through is the next case's starting point, so it is not counted twice.
          if (after.status === 200) before = after;
          if (ok) return undefined;
          return {
            expected: `${inv.what}: 400 ${inv.noTarget ? "with scimType noTarget" : `(scimType, if any, ${inv.scimTypes.join(" or ")})`}, and the user reads back as before (RFC 7644 §3.5.2: a PATCH is atomic)`,
            actual: `${p.status} scimType ${quote(scimType ?? null)}, then ${after.status}${changed.length > 0 ? `; changed: ${changed.join("; ")}` : ""}`,
            res: p.status === 400 && after.status === 200 ? after : p,
          };
        });
      } finally {
        await s.remove("Users", id);
      }
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.user-patch-pathless",
    title:
      "a PATCH of several operations, one a replace without a path, applies each of them and leaves every other attribute as it was",
    requirements: ["SCIM-USER-PATCH"],
    async run(c) {
      const s = new ScimClient(c);
      const enterprise = await offersEnterprise(s);
      // An enterprise user without employeeNumber: the PATCH adds it by a replace (RFC 7644 §3.5.2.3).
      const payload = enterprise
        ? s.user(undefined, {
            schemas: [URN.user, URN.enterprise],
            [URN.enterprise]: { department: "Provisioning" },
          })
        : s.user();
      const { res, id } = await s.createUser(payload);
      if (id === undefined)
        return c.skip(`creating the user answered ${res.status}: see SCIM-USER-CREATE`, "dependency");
      try {
        const path = `/Users/${encodeURIComponent(id)}`;
        const before = await s.call("GET", path, { label: "read the user before the PATCH" });
        if (before.status !== 200)
          return c.skip(`reading the new user answered ${before.status}: see SCIM-USER-GET`, "dependency");
        const tag = s.name("pl");
        // RFC 7644 §3.5.2.3: without a path, the value holds the attributes to replace.
        const wanted: Record<string, unknown> = { displayName: `Pathless ${tag}`, externalId: `${tag}-ext` };
        const ops: unknown[] = [{ op: "replace", value: { ...wanted } }];
        if (enterprise) {
          ops.push({ op: "replace", path: `${URN.enterprise}:employeeNumber`, value: `E-${tag}` });
          wanted[URN.enterprise] = { department: "Provisioning", employeeNumber: `E-${tag}` };
        }
        const p = await s.call("PATCH", path, {
          body: patch(ops),
          label: "PATCH replace without a path, and more",
        });
        const after = await s.call("GET", path, { label: "read after the PATCH" });
        const read = body(after) as Record<string, unknown>;
        const notSet = after.status === 200 ? missing(wanted, read, "") : [];
        const others = Object.keys(body(before)).filter((k) => k !== "meta" && !(k in wanted));
        const lost = after.status === 200 ? changes(before, after, others) : [];
        c.check(
          "SCIM-USER-PATCH",
          (p.status === 200 || p.status === 204) &&
            after.status === 200 &&
            notSet.length === 0 &&
            lost.length === 0,
          {
            expected: `200 (or 204), then ${Object.keys(wanted).join(", ")} as replaced and ${others.join(", ")} as before`,
            actual: `${p.status}${p.status >= 400 ? ` ${p.text.slice(0, 200)}` : ""}, then ${after.status}${[...notSet, ...lost].length > 0 ? `; ${[...notSet, ...lost].slice(0, 4).join("; ")}` : ""}`,
            res: p.status >= 400 ? p : after,
          },
        );
      } finally {
        await s.remove("Users", id);
      }
    },
  }),
];
