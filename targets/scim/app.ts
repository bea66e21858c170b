import { Hono } from "hono";
import type { FaultSet } from "./faults.js";
import { AccessTokens } from "./oauth/access-tokens.js";
import { bearerGuard } from "./oauth/bearer-guard.js";
import type { TrustedClient } from "./oauth/client-assertion.js";
import { JtiCache } from "./oauth/jti-cache.js";
import { authorizationServerMetadata } from "./oauth/metadata.js";
import { RateLimiter } from "./oauth/rate-limiter.js";
import { tokenEndpoint } from "./oauth/token-endpoint.js";
import { AccessRegistry } from "./service/access-registry.js";
import { CursorCodec } from "./service/cursor.js";
import type { ScimDeps } from "./service/deps.js";
import { discoveryRoutes } from "./service/discovery-routes.js";
import { GroupStore } from "./service/group-store.js";
import { groupRoutes } from "./service/group-routes.js";
import { probeRoute } from "./service/probe-route.js";
import { createResponder } from "./service/responder.js";
import { ScimError } from "./service/scim-error.js";
import { userRoutes } from "./service/user-routes.js";
import { UserStore } from "./service/user-store.js";

export const SCIM_BASE_PATH = "/scim/v2";

export interface ScimAppOptions {
  readonly faults: FaultSet;
  /** The origin the server listens on (`http://127.0.0.1:port`), known once it listens. */
  readonly origin: () => string;
  readonly client: TrustedClient;
  /** The rate limiter's clock (tests freeze it, so a burst's verdict never depends on load). */
  readonly clock?: () => number;
  /** Tests: another per-token limit, and a client-wide penalty (see RateLimiter). */
  readonly rateLimit?: { readonly perSecond?: number; readonly penaltySeconds?: number };
}

// Stryker disable all: test plumbing: the demo and the suite's runs use the default limit
const limiter = (o: ScimAppOptions): RateLimiter =>
  new RateLimiter(o.rateLimit?.perSecond, o.clock, (o.rateLimit?.penaltySeconds ?? 0) * 1000);
// Stryker restore all

/**
 * The Application of specs/002 area C, as one Hono app: its OAuth authorization server
 * (RFC 8414 metadata, RFC 7523 token endpoint), the SCIM service provider under
 * /scim/v2 behind the bearer guard, and the access probe. All state is in memory.
 */
export function createScimApp(o: ScimAppOptions): Hono {
  const { faults } = o;
  const respond = createResponder(faults);
  const access = new AccessRegistry();
  const users = new UserStore(faults, access);
  const groups = new GroupStore();
  // Stryker disable next-line ArrowFunction: RFC 7644 §3.6 leaves open what becomes of a deleted user's group memberships (it asks 404 for the user and its omission from query results only)
  users.onDelete = (id) => groups.dropMember(id);
  const tokens = new AccessTokens();
  const deps: ScimDeps = {
    faults,
    respond,
    users,
    groups,
    access,
    cursors: new CursorCodec(),
    base: () => `${o.origin()}${SCIM_BASE_PATH}`,
  };
  const urls = () => ({ issuer: o.origin(), tokenEndpoint: `${o.origin()}/oauth/token` });

  const app = new Hono();
  app.get("/.well-known/oauth-authorization-server", (c) =>
    c.json(authorizationServerMetadata(urls().issuer, urls().tokenEndpoint)),
  );
  app.post("/oauth/token", tokenEndpoint({ client: o.client, tokens, jtis: new JtiCache(), faults, urls }));

  const scim = new Hono();
  // group-path-singular-missing: groups live at /Groups only, and the router answers the
  // document's /Group paths 404 before any authentication (as frameworks commonly do).
  if (faults.has("group-path-singular-missing")) {
    const missing = (): Response => respond.error(new ScimError(404, undefined, "no such endpoint"));
    scim.all("/Group", missing);
    scim.all("/Group/*", missing);
  }
  scim.use("*", bearerGuard({ tokens, rate: limiter(o), faults }));
  // Stryker disable next-line StringLiteral: equivalent: Hono mounts a sub-app at "" and "/" alike
  scim.route("/", discoveryRoutes(deps));
  // Stryker disable next-line StringLiteral: equivalent: Hono mounts a sub-app at "" and "/" alike
  scim.route("/", userRoutes(deps));
  // Stryker disable next-line StringLiteral: equivalent: Hono mounts a sub-app at "" and "/" alike
  scim.route("/", groupRoutes(deps));
  app.route(SCIM_BASE_PATH, scim);
  app.route("/probe", probeRoute(users, access));

  // Stryker disable next-line all: decides only the body of the 404 for a path or method no route serves (below) and of the last-resort 500
  const isScim = (path: string): boolean => path === SCIM_BASE_PATH || path.startsWith(`${SCIM_BASE_PATH}/`);
  // RFC 7644 §3.12: an unknown endpoint or resource is 404 in the SCIM error format.
  // Stryker disable all: a path or method no route serves, which no check requests: SCIM defines no other endpoint to try, and the body of a 404 for one is commonly the provider framework's
  app.notFound((c) =>
    // unknown-endpoint-plain-404: the web framework's own plain-text 404 instead.
    faults.has("unknown-endpoint-plain-404")
      ? c.text("404 Not Found", 404)
      : isScim(c.req.path)
        ? respond.error(new ScimError(404, undefined, "no such endpoint"))
        : c.json({ error: "not_found" }, 404),
  );
  // Stryker restore all
  // Anything unexpected becomes a bare 500: never a stack, a path or a framework name.
  app.onError((err, c) => {
    // Stryker disable next-line ConditionalExpression: equivalent: every failure the target answers on purpose is a ScimError; only an unexpected error (a bug of the target) reaches the lines where this differs
    if (err instanceof ScimError) return respond.error(err);
    // Stryker disable next-line all: the last-resort 500 for an unexpected error (a bug of the target), which no request to the clean target raises
    if (!isScim(c.req.path)) return c.json({ error: "server_error" }, 500);
    return respond.error(new ScimError(500, undefined, "the request could not be processed"));
  });
  return app;
}
