import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { ScimProfile } from "../profile.js";
import { ScimClient, scimError, URN } from "../scim-client.js";
import { body, missing } from "./users.js";

/** A value other than null (RFC 7643 §2.5: null and absent are both unassigned). */
const set = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * Whether the User schema the service provider publishes (RFC 7644 §4, RFC 7643 §7) has an
 * emails.display a client may write: a provider need not store sub-attributes it does not list.
 */
async function writesEmailDisplay(s: ScimClient): Promise<boolean> {
  const res = await s.call("GET", `/Schemas/${URN.user}`, { label: "User schema (emails.display?)" });
  const attrs = (res.json as { attributes?: unknown } | undefined)?.attributes;
  const emails = Array.isArray(attrs)
    ? (attrs as { name?: unknown; subAttributes?: unknown }[]).find(
        (a) => typeof a?.name === "string" && a.name.toLowerCase() === "emails",
      )
    : undefined;
  const subs = Array.isArray(emails?.subAttributes)
    ? (emails.subAttributes as { name?: unknown; mutability?: unknown }[])
    : [];
  const display = subs.find((a) => typeof a?.name === "string" && a.name.toLowerCase() === "display");
  return res.status === 200 && display !== undefined && display.mutability !== "readOnly";
}

/** A POST /Users body RFC 7643 makes invalid, and why. */
interface Invalid {
  readonly what: string;
  readonly payload: Record<string, unknown>;
  /** RFC 7644 §3.12 (Table 9) scimTypes that describe the mistake; one of them, when the error gives one. */
  readonly scimTypes: readonly string[];
}

/** A required value missing, or a value not of the attribute's type (RFC 7644 §3.12 Table 9). */
const MISSING = ["invalidValue"];
const TYPE = ["invalidValue", "invalidSyntax"];

/**
 * Users RFC 7643 does not allow: §4.1.1 ("Each User MUST include a non-empty userName value"),
 * §2.3.1 (displayName is a string), §2.3.2 (a boolean is true or false), §2.3.8 (name is a single complex value).
 */
function invalidUsers(s: ScimClient): readonly Invalid[] {
  const base = s.user();
  const { userName: _, ...noUserName } = base;
  return [
    { what: "no userName", payload: noUserName, scimTypes: MISSING },
    { what: "an empty userName", payload: { ...base, userName: "" }, scimTypes: MISSING },
    {
      what: "active that is not a boolean",
      payload: s.user(undefined, { active: "maybe" }),
      scimTypes: TYPE,
    },
    {
      what: "a string for the complex name",
      payload: s.user(undefined, { name: "Ada Lovelace" }),
      scimTypes: TYPE,
    },
    {
      what: "an object for the string displayName",
      payload: s.user(undefined, { displayName: { text: "Ada" } }),
      scimTypes: TYPE,
    },
    {
      what: "an array for the single-valued complex name",
      payload: s.user(undefined, { name: [{ givenName: "Ada" }] }),
      scimTypes: TYPE,
    },
  ];
}

/** specs/002 area C Endpoints (POST /Users: "user attributes per SCIM"), RFC 7643 §2.5 and §4.1. */
export const userValueChecks = [
  defineCheck<ScimProfile>({
    id: "scim.user-create-values",
    title:
      "POST /Users keeps active false, takes null as unassigned, and refuses a user without a non-empty userName or with a value of the wrong type (400)",
    requirements: ["SCIM-USER-GET", "SCIM-USER-NULL-UNASSIGNED", "SCIM-USER-INVALID-VALUE"],
    async run(c) {
      const s = new ScimClient(c);
      const made: (string | undefined)[] = [];
      try {
        // RFC 7643 §2.5: a null value is the same as an unassigned attribute. The work email
        // stays the primary one (public-spec-facts §5); the second carries the nulls.
        const userName = s.name("null");
        // emails.display (RFC 7643 §2.4) only where the published schema lets a client write it.
        const display = (await writesEmailDisplay(s)) ? { display: `Ada at work ${userName}` } : {};
        const sent = s.user(userName, {
          active: null,
          displayName: null,
          name: { givenName: "Ada", familyName: userName, middleName: null },
          emails: [
            { value: `${userName}@example.test`, type: "work", primary: true, ...display },
            { value: `other-${userName}@example.test`, type: null, primary: null, display: null },
          ],
        });
        const { res, id } = await s.createUser(sent);
        made.push(id);
        c.check("SCIM-USER-NULL-UNASSIGNED", id !== undefined, {
          expected: "201: a null attribute value is an unassigned attribute (RFC 7643 §2.5)",
          actual: `${res.status} ${res.text.slice(0, 200)}`,
          res,
        });
        if (id === undefined)
          c.skipOnly(
            "SCIM-USER-GET",
            `creating the user with null values answered ${res.status}: see SCIM-USER-NULL-UNASSIGNED`,
            "dependency",
          );
        else {
          const got = await s.call("GET", `/Users/${encodeURIComponent(id)}`, { label: "read the user" });
          const g = body(got) as Record<string, unknown>;
          // What was sent with a value reads back with it.
          const given = {
            userName,
            externalId: sent.externalId,
            name: { givenName: "Ada", familyName: userName },
            emails: [
              { value: `${userName}@example.test`, type: "work", primary: true, ...display },
              { value: `other-${userName}@example.test` },
            ],
          };
          const lost = got.status === 200 ? missing(given, g, "") : [];
          c.check("SCIM-USER-GET", got.status === 200 && lost.length === 0, {
            expected: "200 with every attribute the user was created with",
            actual: `${got.status}${lost.length > 0 ? `; ${lost.slice(0, 4).join("; ")}` : ""}`,
            res: got,
          });
          // What was sent as null reads back unassigned: absent or null.
          const name =
            g.name !== null && typeof g.name === "object" ? (g.name as Record<string, unknown>) : {};
          const emails = Array.isArray(g.emails) ? (g.emails as unknown[]) : [];
          const other = emails.find(
            (e): e is Record<string, unknown> =>
              e !== null &&
              typeof e === "object" &&
              String((e as Record<string, unknown>).value).toLowerCase() ===
                `other-${userName}@example.test`.toLowerCase(),
          );
          const assigned = [
            ...(set(g.displayName) ? [`displayName ${quote(g.displayName)}`] : []),
            ...(set(name.middleName) ? [`name.middleName ${quote(name.middleName)}`] : []),
            ...(set(other?.display) ? [`the second email's display ${quote(other?.display)}`] : []),
            ...(set(other?.type) ? [`the second email's type ${quote(other?.type)}`] : []),
            ...(set(other?.primary) && other?.primary !== false
              ? [`the second email's primary ${quote(other?.primary)}`]
              : []),
          ];
          c.check("SCIM-USER-NULL-UNASSIGNED", got.status === 200 && assigned.length === 0, {
            expected:
              "displayName, name.middleName and the second email's display, type and primary unassigned (absent or null)",
            actual: `${got.status}${assigned.length > 0 ? `; ${assigned.join(", ")}` : ""}`,
            res: got,
          });
        }
        // A user created inactive reads back inactive (RFC 7643 §4.1.1 active).
        const off = s.user(s.name("off"), { active: false });
        const inactive = await s.createUser(off);
        made.push(inactive.id);
        const offRead =
          inactive.id === undefined
            ? undefined
            : await s.call("GET", `/Users/${encodeURIComponent(inactive.id)}`, {
                label: "read the user created inactive",
              });
        c.check("SCIM-USER-GET", offRead?.status === 200 && body(offRead).active === false, {
          expected: "a user created with active false: 201, then 200 with active false",
          actual: `${inactive.res.status}${offRead ? `, then ${offRead.status} with active ${quote(body(offRead).active)}` : ""}`,
          res: offRead ?? inactive.res,
        });
        // RFC 7644 §3.12 (Table 9): a missing or ill-typed value is 400 invalidValue.
        await c.each("SCIM-USER-INVALID-VALUE", invalidUsers(s), "invalid user", async (inv) => {
          const r = await s.createUser(inv.payload);
          made.push(r.id);
          const scimType = scimError(r.res)?.scimType;
          const typeOk =
            scimType === undefined || (typeof scimType === "string" && inv.scimTypes.includes(scimType));
          if (r.res.status === 400 && typeOk) return undefined;
          return {
            expected: `a user with ${inv.what}: 400 (scimType, if any, ${inv.scimTypes.join(" or ")})`,
            actual: `${r.res.status} scimType ${quote(scimError(r.res)?.scimType ?? null)}`,
            res: r.res,
          };
        });
        // RFC 7643 §2.4: "primary" true appears no more than once: refused, or one kept.
        const two = s.name("prim");
        const dup = await s.createUser(
          s.user(two, {
            emails: [
              { value: `${two}@example.test`, type: "work", primary: true },
              { value: `home-${two}@example.test`, type: "home", primary: true },
            ],
          }),
        );
        made.push(dup.id);
        const dupRead =
          dup.id === undefined
            ? undefined
            : await s.call("GET", `/Users/${encodeURIComponent(dup.id)}`, {
                label: "read the user sent with two primary emails",
              });
        const dupEmails =
          dupRead && Array.isArray(body(dupRead).emails) ? (body(dupRead).emails as unknown[]) : [];
        const primaries = dupEmails.filter(
          (e) => e !== null && typeof e === "object" && (e as Record<string, unknown>).primary === true,
        ).length;
        c.check(
          "SCIM-USER-INVALID-VALUE",
          dup.res.status === 400 || (dupRead?.status === 200 && primaries <= 1),
          {
            expected:
              "a user sent with two primary emails: 400, or at most one primary email read back (RFC 7643 §2.4)",
            actual: `${dup.res.status}${dupRead ? `, then ${dupRead.status} with ${primaries} primary emails` : ""}`,
            res: dupRead ?? dup.res,
          },
        );
      } finally {
        for (const id of made.reverse()) await s.remove("Users", id);
      }
    },
  }),
];
