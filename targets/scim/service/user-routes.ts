import { Hono, type Context } from "hono";
import type { ScimDeps } from "./deps.js";
import { parseExcluded, withoutExcluded } from "./excluded-attributes.js";
import { userFilterSchema } from "./filter-schemas.js";
import { filterFromQuery } from "./filter-query.js";
import { readJsonObject } from "./json-body.js";
import { listPage, type PageQuery } from "./list.js";
import { parsePatchRequest } from "./patch-op.js";
import { badRequest, notFound, ScimError } from "./scim-error.js";
import { parseUserInput, renderUser, type UserRecord } from "./user-model.js";
import { patchUser } from "./user-patch.js";

/** The paging parameters of a request. */
export const pageQuery = (c: Context): PageQuery => ({
  startIndex: c.req.query("startIndex"),
  count: c.req.query("count"),
  cursor: c.req.query("cursor"),
});

/**
 * /Users (specs/002 area C Endpoints; RFC 7644 §3.3-§3.6): create, read, list with
 * filters and paging, PATCH, DELETE.
 */
export function userRoutes(d: ScimDeps): Hono {
  const app = new Hono();
  const filterSchema = userFilterSchema(d.faults);
  const render = (u: UserRecord, c: Context): Record<string, unknown> =>
    withoutExcluded(renderUser(u, d.base()), parseExcluded(c.req.query("excludedAttributes")));
  const find = (id: string): UserRecord => {
    const user = d.users.get(id);
    // Stryker disable next-line StringLiteral: the resource name only labels a 404 detail (free text)
    if (user === undefined) throw notFound("user");
    return user;
  };

  // Index pages after the first start one item late or early under the page-border faults, and
  // wrap around past the end under list-start-index-wraps.
  const offsetFor = (startIndex: number, total: number): number => {
    // Stryker disable next-line ConditionalExpression: made false it is equivalent (startIndex - 1 is 0 too without a fault; the page-border faults move only later pages); made true it is ignored with it
    if (startIndex === 1) return 0;
    if (d.faults.has("page-border-drops")) return startIndex;
    if (d.faults.has("page-border-repeats")) return startIndex - 2;
    // list-start-index-wraps: a startIndex past the last user starts over from the first.
    if (d.faults.has("list-start-index-wraps") && total > 0) return (startIndex - 1) % total;
    return startIndex - 1;
  };

  app.post("/Users", async (c) => {
    const raw = await readJsonObject(c.req.raw, d.faults);
    // null-attribute-refused: a null value anywhere in the user is refused, not taken as unassigned.
    if (d.faults.has("null-attribute-refused") && JSON.stringify(raw).includes(":null"))
      throw badRequest("invalidValue", "null values are not accepted");
    // empty-username-accepted: an empty userName is kept instead of refused.
    if (d.faults.has("empty-username-accepted") && raw.userName === "") {
      const user = d.users.create({ ...parseUserInput({ ...raw, userName: "-" }), userName: "" });
      return d.respond.json(render(user, c), 201, { location: `${d.base()}/Users/${user.id}` });
    }
    const fields = parseUserInput(raw);
    if (d.faults.has("email-primary-dropped")) fields.emails = fields.emails.map(({ primary: _, ...e }) => e);
    const user = d.users.create(fields);
    const body = render(user, c);
    const location = `${d.base()}/Users/${user.id}`;
    // RFC 7644 §3.3: the 201 carries the resource's URI in Location, as meta.location.
    return d.respond.json(body, 201, d.faults.has("no-location-header") ? {} : { location });
  });

  app.get("/Users", (c) => {
    const match = filterFromQuery(c.req.query("filter"), filterSchema, d.faults);
    const items = d.users.all().filter(match);
    return d.respond.json(
      listPage(
        items,
        pageQuery(c),
        {
          // Stryker disable next-line StringLiteral: equivalent: the kind binds a cursor to its list, encoded and decoded alike; RFC 9865 does not require a cursor of another list to be refused
          kind: "User",
          cursors: d.cursors,
          offsetFor,
          zeroBasedStartIndex: d.faults.has("list-start-index-zero-based"),
          itemsPerPageOnFirstOnly: d.faults.has("list-omits-paging-members"),
          cursorRepeatsLast: d.faults.has("cursor-repeats"),
          emptyOnOverrun: d.faults.has("page-overrun-empty"),
          itemsPerPageIsCount: d.faults.has("items-per-page-count"),
        },
        (u) => render(u, c),
      ),
    );
  });

  app.get("/Users/:id", (c) => {
    const body = render(find(c.req.param("id")), c);
    if (d.faults.has("get-user-no-username")) delete body.userName;
    return d.respond.json(body);
  });

  app.patch("/Users/:id", async (c) => {
    const body = await readJsonObject(c.req.raw, d.faults);
    const user = find(c.req.param("id"));
    // patch-invalid-ignored: a PATCH that cannot be read or applied answers 200 and changes nothing.
    if (d.faults.has("patch-invalid-ignored")) {
      try {
        patchUser(user, parsePatchRequest(body), d.faults);
      } catch (err) {
        if (err instanceof ScimError && err.status === 400) return d.respond.json(render(user, c));
        throw err;
      }
    }
    const fields = patchUser(user, parsePatchRequest(body), d.faults);
    return d.respond.json(render(d.users.update(user.id, fields), c));
  });

  app.delete("/Users/:id", (c) => {
    // Stryker disable next-line StringLiteral: the resource name only labels a 404 detail (free text)
    if (!d.users.delete(c.req.param("id"))) throw notFound("user");
    return c.body(null, 204);
  });

  return app;
}
