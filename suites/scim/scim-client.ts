import type { JWK } from "jose";
import type { CheckContext } from "../../src/engine/check.js";
import type { HttpResponse } from "../../src/http/client.js";
import { signAssertion } from "../../mocks/identity-service/assertion.js";
import type { ScimProfile } from "./profile.js";

export const SCIM_JSON = "application/scim+json";
export const URN = {
  user: "urn:ietf:params:scim:schemas:core:2.0:User",
  group: "urn:ietf:params:scim:schemas:core:2.0:Group",
  enterprise: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
  list: "urn:ietf:params:scim:api:messages:2.0:ListResponse",
  patch: "urn:ietf:params:scim:api:messages:2.0:PatchOp",
  error: "urn:ietf:params:scim:api:messages:2.0:Error",
  spc: "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig",
} as const;

type Ctx = CheckContext<ScimProfile>;

/** Access tokens are shared by the checks of one worker, until shortly before they expire. */
const tokenCache = new Map<string, { token: string; until: number }>();
const endpointCache = new Map<string, string>();
/** The Group endpoint /ResourceTypes gives, per service provider and run. */
const groupEndpoints = new Map<string, string>();

/** SCIM's own path for groups (RFC 7644 §3.2), used when /ResourceTypes names none. */
export const GROUPS = "/Groups";

/**
 * The endpoint of the Group resource type in a /ResourceTypes answer, as a path under the
 * base URL (RFC 7643 §6: "endpoint ... relative to the Base URL", e.g. "/Groups"; an absolute
 * URL under the base, or one without its leading slash, is read the same). Undefined when the
 * answer names no usable one.
 */
export function groupEndpointOf(json: unknown, base: string): string | undefined {
  const list = Array.isArray(json) ? json : (json as { Resources?: unknown } | undefined)?.Resources;
  if (!Array.isArray(list)) return undefined;
  const rt = list.find((r) => {
    const x = (r ?? {}) as { id?: unknown; name?: unknown; schema?: unknown };
    return x.schema === URN.group || x.id === "Group" || x.name === "Group";
  }) as { endpoint?: unknown } | undefined;
  if (typeof rt?.endpoint !== "string") return undefined;
  let e = rt.endpoint;
  if (/^https?:\/\//i.test(e)) {
    if (!e.startsWith(`${base}/`)) return undefined;
    e = e.slice(base.length);
  }
  if (!e.startsWith("/")) e = `/${e}`;
  e = e.replace(/\/+$/, "");
  const segments = e.split("/").slice(1);
  const plain = segments.every((x) => /^[A-Za-z0-9._~-]+$/.test(x) && x !== "." && x !== "..");
  return plain && e.length <= 200 ? e : undefined;
}

/** The tag every resource of this run carries: `<prefix>-<run suffix>-`. */
export function runTag(p: ScimProfile, runId: string): string {
  return `${p.resourcePrefix}-${runId.slice(-4)}-`;
}

export const isOAuth = (p: ScimProfile): boolean => p.auth.bearerToken === undefined;

/**
 * The Identity Service's side of SCIM for the checks: OAuth token requests (RFC 7523
 * client assertions), SCIM calls with the right media type, and polite 429 handling.
 * Every request goes through the check's recording client, so it is evidence.
 */
export class ScimClient {
  readonly base: string;
  readonly tag: string;
  private seq = 0;

  constructor(readonly c: Ctx) {
    this.base = c.profile.baseUrl.replace(/\/+$/, "");
    this.tag = runTag(c.profile, c.runId);
  }

  /** A unique name for a resource of this run: `<tag><what>-<n><random>`. */
  name(what: string): string {
    return `${this.tag}${what}-${++this.seq}${Math.random().toString(36).slice(2, 7)}`;
  }

  /** The token endpoint: from the profile, or from the issuer's RFC 8414 metadata. */
  async tokenEndpoint(): Promise<string> {
    const a = this.c.profile.auth;
    if (a.tokenEndpoint) return a.tokenEndpoint;
    const issuer = new URL(a.issuer ?? "");
    const cached = endpointCache.get(issuer.href);
    if (cached) return cached;
    const path = issuer.pathname === "/" ? "" : issuer.pathname.replace(/\/$/, "");
    const res = await this.c.http.get(`${issuer.origin}/.well-known/oauth-authorization-server${path}`, {
      label: "AS metadata",
    });
    const te = (res.json as { token_endpoint?: unknown } | undefined)?.token_endpoint;
    if (res.status !== 200 || typeof te !== "string") {
      return this.c.skip(
        `no token endpoint: RFC 8414 metadata of ${issuer.href} answered ${res.status}${typeof te === "string" ? "" : " without token_endpoint"}`,
        "dependency",
      );
    }
    endpointCache.set(issuer.href, te);
    return te;
  }

  /**
   * Where groups live: the endpoint /ResourceTypes gives for Group (once per provider and
   * run), or SCIM's `/Groups` when it names none (a finding of SCIM-RT-USERS-GROUPS, not a
   * reason to test groups anywhere else). specs/002 area C writes `POST /Group` and
   * `GET /Group/{id}`; those literal paths are judged apart (SCIM-GROUP-PROFILE-PATHS).
   */
  async groups(): Promise<string> {
    const key = `${this.base}|${this.c.runId}`;
    const hit = groupEndpoints.get(key);
    if (hit) return hit;
    const res = await this.call("GET", "/ResourceTypes", {
      label: "the Group endpoint (GET /ResourceTypes)",
    });
    const path = (res.status === 200 ? groupEndpointOf(res.json, this.base) : undefined) ?? GROUPS;
    groupEndpoints.set(key, path);
    return path;
  }

  /** POSTs a client-credentials token request with a signed assertion (claims overridable). */
  async requestToken(
    o: { scope?: string; claims?: Record<string, unknown>; assertion?: string; label?: string } = {},
  ): Promise<HttpResponse> {
    const a = this.c.profile.auth;
    const endpoint = await this.tokenEndpoint();
    const jwk = JSON.parse(a.clientKey ?? "{}") as JWK;
    const assertion =
      o.assertion ??
      (await signAssertion(jwk, {
        clientId: a.clientId ?? "",
        audience: endpoint,
        ...(o.claims ? { claims: o.claims } : {}),
      }));
    this.c.secret(assertion, "CLIENT_ASSERTION");
    return this.c.http.post(endpoint, {
      form: {
        grant_type: "client_credentials",
        client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        client_assertion: assertion,
        scope: o.scope ?? "scim",
      },
      label: o.label ?? "token request",
    });
  }

  /** An access token with the scim scope (cached per worker); skips the check when none can be had. */
  async token(fresh = false): Promise<string> {
    const a = this.c.profile.auth;
    if (a.bearerToken) return a.bearerToken;
    // Keyed by run too: a later run may meet another target on the same port.
    const key = `${this.c.profile.baseUrl}|${this.c.runId}|scim`;
    const hit = tokenCache.get(key);
    if (!fresh && hit && hit.until > Date.now()) {
      this.c.secret(hit.token, "ACCESS_TOKEN");
      return hit.token;
    }
    const res = await this.requestToken();
    const body = res.json as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (res.status !== 200 || typeof body?.access_token !== "string") {
      return this.c.skip(
        `no access token: the token request answered ${res.status} (see SCIM-AUTH-JWT-CLIENT)`,
        "dependency",
      );
    }
    this.c.secret(body.access_token, "ACCESS_TOKEN");
    const life = typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : 300;
    if (!fresh)
      tokenCache.set(key, { token: body.access_token, until: Date.now() + Math.max(0, life - 30) * 1000 });
    return body.access_token;
  }

  /**
   * A SCIM request. `token: null` sends none; a string sends that one. A 429 is waited out
   * (Retry-After, or one second without it) and retried at most 3 times: rate limits are
   * findings of scim.rate-limit only, which opts out with `retry429: false`.
   */
  async call(
    method: string,
    path: string,
    o: {
      body?: unknown;
      raw?: string;
      token?: string | null;
      label?: string;
      retry429?: boolean;
      /** Keep only the start of the answer's body (see HttpRequest.discardBody). */
      discardBody?: boolean;
    } = {},
  ): Promise<HttpResponse> {
    const token = o.token === undefined ? await this.token() : o.token;
    const headers: Record<string, string> = { accept: SCIM_JSON };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (o.body !== undefined || o.raw !== undefined) headers["content-type"] = SCIM_JSON;
    const url = path.startsWith("http") ? path : `${this.base}${path.startsWith("/") ? "" : "/"}${path}`;
    for (let attempt = 0; ; attempt++) {
      const res = await this.c.http.send({
        method,
        url,
        headers,
        ...(o.raw !== undefined
          ? { body: o.raw }
          : o.body !== undefined
            ? { body: JSON.stringify(o.body) }
            : {}),
        ...(o.label ? { label: o.label } : {}),
        ...(o.discardBody ? { discardBody: true } : {}),
      });
      if (res.status !== 429 || o.retry429 === false || attempt >= 3) return res;
      // Without a usable Retry-After (itself a finding of scim.rate-limit), back off one second.
      const wait = retryAfterSeconds(res.header("retry-after")) ?? 1;
      if (wait > this.c.profile.rateLimit.maxWaitSeconds) return res;
      await delay(Math.max(wait, 0.05) * 1000, this.c.signal);
    }
  }

  /** A User payload with the profile's required attributes (enterprise id, primary email). */
  user(userName = this.name("user"), extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      schemas: [URN.user],
      userName,
      externalId: `ext-${userName}`,
      name: { givenName: "Ada", familyName: userName },
      displayName: `Ada ${userName}`,
      emails: [{ value: `${userName}@example.test`, type: "work", primary: true }],
      active: true,
      ...extra,
    };
  }

  /** Creates a user and remembers it for deletion; the check decides nothing here. */
  async createUser(payload = this.user()): Promise<{ res: HttpResponse; id: string | undefined }> {
    const res = await this.call("POST", "/Users", { body: payload, label: "create user" });
    const id = (res.json as { id?: unknown } | undefined)?.id;
    return { res, id: res.status === 201 && typeof id === "string" ? id : undefined };
  }

  /** Best-effort delete at the end of a check; what cannot be deleted is noted for the report. */
  async remove(kind: "Users" | "Groups", id: string | undefined): Promise<void> {
    if (id === undefined) return;
    try {
      const at = kind === "Groups" ? await this.groups() : "/Users";
      const res = await this.call("DELETE", `${at}/${encodeURIComponent(id)}`, { label: "clean up" });
      if (res.status !== 204 && res.status !== 200 && res.status !== 404)
        this.c.note(`could not delete ${kind}/${id}: ${res.status}`);
    } catch (err) {
      this.c.note(`could not delete ${kind}/${id}: ${(err as Error).message}`);
    }
  }
}

/** Retry-After as seconds (delta-seconds or an HTTP-date), or undefined. */
/**
 * A URI a SCIM response gives (`meta.location`, `Location`) as an absolute URL: RFC 7643 §2.3.7
 * allows a relative reference, resolved against the URL of the response it came in (RFC 3986 §5).
 * Undefined for anything else.
 */
export function absoluteUri(value: unknown, from: string): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  try {
    return new URL(value, from).href;
  } catch {
    return undefined;
  }
}

export function retryAfterSeconds(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000);
}

export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(t);
      reject(new Error("the run was stopped"));
    };
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** The SCIM error members of a body, for checks of the Error schema. */
export function scimError(
  res: HttpResponse,
): { schemas?: unknown; status?: unknown; scimType?: unknown; detail?: unknown } | undefined {
  const j = res.json;
  return j !== null && typeof j === "object" ? (j as Record<string, unknown>) : undefined;
}

/** Resources of a ListResponse, or undefined when the body is not one. */
export function resources(res: HttpResponse): Record<string, unknown>[] | undefined {
  const r = (res.json as { Resources?: unknown } | undefined)?.Resources;
  if (r === undefined && (res.json as { totalResults?: unknown } | undefined)?.totalResults === 0) return [];
  return Array.isArray(r)
    ? (r.filter((x) => x !== null && typeof x === "object") as Record<string, unknown>[])
    : undefined;
}
