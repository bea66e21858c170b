import { quote } from "../../src/engine/quote.js";
import type { HttpResponse } from "../../src/http/client.js";
import { readEntityConfiguration, wellKnownUrl, type Ctx } from "./client.js";
import { decodeStatement, isObject, LEEWAY, now, verifyWith, type Json } from "./statements.js";

/**
 * The Entity Configurations of listed subordinates, each read at its own well-known URL and
 * verified with its own jwks (public-spec-facts §2 Entity Configuration), for the rules that
 * judge a listing against what each entity itself declares (entity_type, trust_mark_type,
 * trust_marks). At most `walk.fetchMax` are read: `beyond` counts the ids left unread.
 */
export interface SubordinateConfigurations {
  /** Verified payloads, by Entity Identifier. */
  readonly read: ReadonlyMap<string, Json>;
  /** Entities whose Entity Configuration could not be read or trusted, and why. */
  readonly unread: readonly { readonly id: string; readonly why: string }[];
  /** Ids past `walk.fetchMax`, not fetched. */
  readonly beyond: number;
}

/** Reads the Entity Configurations of `ids` (distinct, in order), bounded by `walk.fetchMax`. */
export async function subordinateConfigurations(
  c: Ctx,
  ids: readonly string[],
): Promise<SubordinateConfigurations> {
  const distinct = [...new Set(ids)];
  const max = c.profile.walk.fetchMax;
  const read = new Map<string, Json>();
  const unread: { id: string; why: string }[] = [];
  for (const id of distinct.slice(0, max)) {
    const got = await ownConfiguration(c, id, `Entity Configuration of ${short(id)}`);
    if (typeof got === "string") unread.push({ id, why: got });
    else read.set(id, got.payload);
  }
  return { read, unread, beyond: Math.max(0, distinct.length - max) };
}

/** An identifier as a label shows it (a hostile one may be of any length). */
const short = (id: string): string => (id.length > 160 ? `${id.slice(0, 160)}…` : id);

/** An entity's own Entity Configuration, verified and about itself, or why not. */
async function ownConfiguration(
  c: Ctx,
  id: string,
  label: string,
): Promise<{ payload: Json; res: HttpResponse } | string> {
  let url: string;
  try {
    const u = new URL(id);
    if (u.protocol !== "https:" && u.protocol !== "http:") return `${quote(id, 80)} is not an http(s) URL`;
    url = wellKnownUrl(id);
  } catch {
    return `${quote(id, 80)} is not a URL`;
  }
  let res: HttpResponse;
  try {
    res = await c.http.get(url, { label });
  } catch (e) {
    // Not the target's answer (another host unreachable, plain http refused): not judged here.
    if (c.signal.aborted) throw e;
    return `its Entity Configuration could not be fetched (${e instanceof Error ? e.message.slice(0, 160) : "error"})`;
  }
  if (res.status !== 200) return `its Entity Configuration answered ${res.status}`;
  const ec = await readEntityConfiguration(res);
  if (ec.unverified !== undefined) return `its Entity Configuration does not verify (${ec.unverified})`;
  if (ec.payload.iss !== id || ec.payload.sub !== id)
    return `its Entity Configuration has iss ${quote(ec.payload.iss ?? null, 80)}, sub ${quote(ec.payload.sub ?? null, 80)}`;
  return { payload: ec.payload, res };
}

/** The Entity Types an Entity Configuration declares: the members of its metadata. */
export const declaredTypes = (ec: Json): string[] => (isObject(ec.metadata) ? Object.keys(ec.metadata) : []);

/** Which Trust Mark types an entity holds: verified and unexpired, or undecidable here. */
export interface MarkHoldings {
  readonly valid: ReadonlySet<string>;
  /** Types with a mark that could not be judged (its issuer unreachable, exp within the leeway). */
  readonly uncertain: ReadonlyMap<string, string>;
}

/** Most distinct Trust Mark issuers whose keys are fetched in one check. */
const MAX_ISSUERS = 50;
/** Most trust_marks elements read per entity. */
const MAX_MARKS = 100;

/**
 * Judges Trust Marks as a federation client would before relying on them: the mark is a JWT
 * whose signature verifies with the key its `kid` names in its issuer's (`iss`) own verified
 * Entity Configuration, whose `sub` is the entity and `trust_mark_type` the type it is listed
 * under, and which is unexpired (`exp`, when present, not past; within the leeway undecided).
 * The issuers' keys are fetched once per instance, at most MAX_ISSUERS issuers.
 */
export class MarkJudge {
  private readonly issuers = new Map<string, Promise<Json | string>>();

  constructor(private readonly c: Ctx) {}

  /** What `ec` (the Entity Configuration of `id`) holds, by Trust Mark type. */
  async holdings(id: string, ec: Json): Promise<MarkHoldings> {
    const valid = new Set<string>();
    const uncertain = new Map<string, string>();
    const marks = Array.isArray(ec.trust_marks) ? ec.trust_marks.slice(0, MAX_MARKS) : [];
    for (const m of marks) {
      if (!isObject(m) || typeof m.trust_mark_type !== "string" || typeof m.trust_mark !== "string") continue;
      const type = m.trust_mark_type;
      if (valid.has(type)) continue;
      const state = await this.state(id, type, m.trust_mark);
      if (state === "valid") {
        valid.add(type);
        uncertain.delete(type);
      } else if (state !== "invalid") uncertain.set(type, state.uncertain);
    }
    return { valid, uncertain };
  }

  /** The Trust Mark types an Entity Configuration lists (well-formed elements only). */
  static typesListed(ec: Json): string[] {
    const marks = Array.isArray(ec.trust_marks) ? ec.trust_marks.slice(0, MAX_MARKS) : [];
    return marks.flatMap((m) =>
      isObject(m) && typeof m.trust_mark_type === "string" ? [m.trust_mark_type] : [],
    );
  }

  private async state(
    id: string,
    type: string,
    token: string,
  ): Promise<"valid" | "invalid" | { uncertain: string }> {
    const d = decodeStatement(token);
    if (!d.ok) return "invalid";
    const { header, payload } = d;
    if (payload.sub !== id || payload.trust_mark_type !== type || typeof payload.iss !== "string")
      return "invalid";
    const issuer = await this.issuer(payload.iss);
    if (typeof issuer === "string") return { uncertain: `its issuer's keys: ${issuer}` };
    const keys =
      isObject(issuer.jwks) && Array.isArray(issuer.jwks.keys) ? issuer.jwks.keys.filter(isObject) : [];
    if ((await verifyWith(token, header, keys)) !== undefined) return "invalid";
    if (payload.exp === undefined) return "valid";
    if (typeof payload.exp !== "number") return "invalid";
    const t = now();
    if (payload.exp < t - LEEWAY) return "invalid";
    if (payload.exp <= t + LEEWAY) return { uncertain: `exp ${payload.exp} within ${LEEWAY} s of now` };
    return "valid";
  }

  private issuer(iss: string): Promise<Json | string> {
    const had = this.issuers.get(iss);
    if (had) return had;
    if (this.issuers.size >= MAX_ISSUERS)
      return Promise.resolve(`more than ${MAX_ISSUERS} Trust Mark issuers; ${quote(iss, 80)} not fetched`);
    const p = ownConfiguration(
      this.c,
      iss,
      `Entity Configuration of the Trust Mark issuer ${short(iss)}`,
    ).then((r) => (typeof r === "string" ? r : r.payload));
    this.issuers.set(iss, p);
    return p;
  }
}
