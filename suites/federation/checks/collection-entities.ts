import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import {
  readEntityConfiguration,
  STATEMENT_TYPE,
  wellKnownUrl,
  type Ctx,
  type EntityConfiguration,
} from "../client.js";
import { getList, listJson } from "./fetch-list.js";
import { decodeStatement, isObject, keysOf, LEEWAY, now, verifyWith, type Json } from "../statements.js";

/** How many authority_hints levels a "below the anchor" search climbs, and hints it follows per entity. */
const MAX_DEPTH = 8;
const MAX_HINTS = 8;

/** An entity's own Entity Configuration as the collection checks use it, or why it cannot be used. */
export type OwnConfiguration =
  | { readonly ok: true; readonly ec: EntityConfiguration; readonly metadata: Json }
  | { readonly ok: false; readonly why: string; readonly res?: HttpResponse };

/**
 * The Entity Configurations and base lists of the entities a check meets, each read once. An
 * Entity Configuration counts only when it verifies with its own jwks and names the entity as
 * iss and sub (public-spec-facts §2 Entity Configuration): what the collection says of an entity
 * is judged against what the entity itself publishes.
 */
export class Federation {
  private readonly ecs = new Map<string, Promise<OwnConfiguration>>();
  private readonly lists = new Map<string, Promise<ReadonlySet<string> | undefined>>();
  private readonly belowMemo = new Map<string, boolean>();
  private readonly budget: number;
  /**
   * Reads were refused past the budget, or a base list was not a list: a "no" of isBelow may
   * then be a "not known". `unknownWhy` says which.
   */
  exhausted = false;
  unknownWhy = "suites.federation.walk.fetchMax";

  /**
   * At most twice walk.fetchMax Entity Configurations are read (the entities judged and the
   * superiors above them): authority_hints are the target's to write, and a federation that
   * names ever new superiors must not lead the harness anywhere without end.
   */
  constructor(private readonly c: Ctx) {
    this.budget = 2 * c.profile.walk.fetchMax + 16;
  }

  /** How many Entity Configurations were asked for. */
  get fetched(): number {
    return this.ecs.size;
  }

  /**
   * Takes the target's own Entity Configuration as the check read it (verified with its own
   * keys): its identifiers are FED-EC-ISS-SUB's to judge, not a reason to doubt its endpoints.
   */
  adopt(id: string, ec: EntityConfiguration): void {
    const metadata = isObject(ec.payload.metadata) ? ec.payload.metadata : {};
    this.ecs.set(id, Promise.resolve({ ok: true, ec, metadata }));
  }

  configuration(id: string): Promise<OwnConfiguration> {
    let p = this.ecs.get(id);
    if (!p) this.ecs.set(id, (p = this.read(id)));
    return p;
  }

  private async read(id: string): Promise<OwnConfiguration> {
    if (this.ecs.size > this.budget) {
      this.exhausted = true;
      return {
        ok: false,
        why: "not read: past the budget of Entity Configurations (suites.federation.walk.fetchMax)",
      };
    }
    if (!/^https?:\/\/[^\s]+$/.test(id) || id.length > 2048)
      return { ok: false, why: `${quote(id, 80)} is not an http(s) Entity Identifier` };
    let url: string;
    try {
      url = wellKnownUrl(id);
      new URL(url);
    } catch {
      return { ok: false, why: `${quote(id, 80)} is not a URL` };
    }
    const res = await this.c.http.get(url, {
      label: `Entity Configuration of ${id}`,
      headers: { accept: STATEMENT_TYPE },
    });
    if (res.status !== 200) return { ok: false, why: `its Entity Configuration answered ${res.status}`, res };
    const ec = await readEntityConfiguration(res);
    if (ec.unverified !== undefined)
      return { ok: false, why: `its Entity Configuration does not verify (${ec.unverified})`, res };
    if (ec.payload.iss !== id || ec.payload.sub !== id)
      return {
        ok: false,
        why: `its Entity Configuration has iss ${quote(ec.payload.iss ?? null)}, sub ${quote(ec.payload.sub ?? null)}`,
        res,
      };
    return { ok: true, ec, metadata: isObject(ec.payload.metadata) ? ec.payload.metadata : {} };
  }

  /** Every Entity Configuration read so far that could be used, with its entity. */
  async usable(): Promise<{ id: string; ec: EntityConfiguration; metadata: Json }[]> {
    const out: { id: string; ec: EntityConfiguration; metadata: Json }[] = [];
    for (const [id, p] of this.ecs) {
      const own = await p;
      if (own.ok) out.push({ id, ec: own.ec, metadata: own.metadata });
    }
    return out;
  }

  /** The Entity Types an entity's own Entity Configuration declares (its metadata members). */
  async typesOf(id: string): Promise<string[] | undefined> {
    const own = await this.configuration(id);
    return own.ok ? Object.keys(own.metadata) : undefined;
  }

  /** The Immediate Subordinates the base list of `superior` names (its own Entity Configuration's endpoint). */
  listOf(superior: string): Promise<ReadonlySet<string> | undefined> {
    let p = this.lists.get(superior);
    if (!p) this.lists.set(superior, (p = this.readList(superior)));
    return p;
  }

  /**
   * The base list as a set (a superior of 100,000 entities is asked about each entity judged),
   * read within the list bounds of suites.federation.walk.maxEntries as the list checks read it
   * (fetch-list.ts getList, listJson): a list past them is not known, never a finding here.
   */
  private async readList(superior: string): Promise<ReadonlySet<string> | undefined> {
    const own = await this.configuration(superior);
    if (!own.ok) return undefined;
    const fe = own.metadata.federation_entity;
    const url = isObject(fe) ? fe.federation_list_endpoint : undefined;
    if (typeof url !== "string" || !/^https?:\/\//.test(url)) return undefined;
    const res = await getList(this.c, url, { label: `base list of ${superior}` });
    if ("over" in res) {
      this.exhausted = true;
      this.unknownWhy = `the base list of ${quote(superior, 80)} was not read: ${res.over}`;
      return undefined;
    }
    const list = listJson(this.c, res).json;
    if (res.status === 200 && Array.isArray(list) && list.every((x) => typeof x === "string"))
      return new Set(list as string[]);
    // Not a list (FED-LIST-OK): who lies below is not known through it.
    this.exhausted = true;
    this.unknownWhy = `the base list of ${quote(superior, 80)} is not a list: see FED-LIST-OK`;
    return undefined;
  }

  /**
   * True when `id` lies directly or indirectly below `anchor` (specs/001 What the service does):
   * the anchor's base list names it, or one of its authority_hints does and lies below the anchor
   * itself, through at most MAX_DEPTH levels. False may mean "not known" when `exhausted`.
   */
  async isBelow(id: string, anchor: string): Promise<boolean> {
    return this.below(id, anchor, 0, new Set());
  }

  private async below(id: string, anchor: string, depth: number, path: Set<string>): Promise<boolean> {
    const key = `${anchor}\n${id}`;
    const known = this.belowMemo.get(key);
    if (known !== undefined) return known;
    if (id === anchor || depth > MAX_DEPTH || path.has(id)) return false;
    let found = (await this.listOf(anchor))?.has(id) ?? false;
    if (!found) {
      const own = await this.configuration(id);
      const hints = own.ok ? own.ec.payload.authority_hints : undefined;
      const superiors = Array.isArray(hints)
        ? hints
            .filter((h): h is string => typeof h === "string" && h !== id && h !== anchor)
            .slice(0, MAX_HINTS)
        : [];
      const next = new Set(path).add(id);
      for (const s of superiors) {
        if ((await this.listOf(s))?.has(id) && (await this.below(s, anchor, depth + 1, next))) {
          found = true;
          break;
        }
      }
    }
    if (path.size === 0 || found) this.belowMemo.set(key, found);
    return found;
  }
}

/** One Trust Mark of an Entity Configuration's trust_marks, read. */
export interface PublishedMark {
  readonly type: string;
  readonly jwt: string;
  readonly payload: Json | undefined;
  readonly header: Json | undefined;
}

/** The Trust Marks an entity's own Entity Configuration publishes ({trust_mark_type, trust_mark}). */
export function publishedMarks(own: OwnConfiguration): PublishedMark[] {
  if (!own.ok || !Array.isArray(own.ec.payload.trust_marks)) return [];
  return own.ec.payload.trust_marks.filter(isObject).flatMap((m) => {
    if (typeof m.trust_mark_type !== "string" || typeof m.trust_mark !== "string") return [];
    const d = decodeStatement(m.trust_mark);
    return [
      {
        type: m.trust_mark_type,
        jwt: m.trust_mark,
        payload: d.ok ? d.payload : undefined,
        header: d.ok ? d.header : undefined,
      },
    ];
  });
}

/** True when a mark's exp (if any) is not past, with the usual leeway. */
export const unexpired = (m: PublishedMark): boolean =>
  m.payload !== undefined && (typeof m.payload.exp !== "number" || m.payload.exp >= now() - LEEWAY);

/**
 * Why a Trust Mark of `subject` does not verify for the collecting Trust Anchor `anchor`
 * (specs/001 Endpoints: Entity collection, trust_mark_type: "verify using the collecting Trust
 * Anchor"; public-spec-facts §2 Trust Marks): its issuer is the anchor or one the anchor's
 * trust_mark_issuers names for the type, it is signed with a key of the issuer's own Entity
 * Configuration, names the subject and the type, and is not expired. Undefined when it verifies.
 */
export async function markProblem(
  fed: Federation,
  anchor: string,
  subject: string,
  m: PublishedMark,
): Promise<string | undefined> {
  if (m.payload === undefined || m.header === undefined) return "it is not a readable JWT";
  const iss = m.payload.iss;
  if (typeof iss !== "string") return `its iss is ${quote(iss ?? null)}`;
  if (iss !== anchor) {
    const ta = await fed.configuration(anchor);
    const issuers =
      ta.ok && isObject(ta.ec.payload.trust_mark_issuers) ? ta.ec.payload.trust_mark_issuers : {};
    const allowed = issuers[m.type];
    if (!Array.isArray(allowed) || !allowed.includes(iss))
      return `its issuer ${iss} is neither the Trust Anchor nor named for ${m.type} in its trust_mark_issuers`;
  }
  const issuer = await fed.configuration(iss);
  if (!issuer.ok) return `its issuer ${iss}: ${issuer.why}`;
  const why = await verifyWith(m.jwt, m.header, keysOf(issuer.ec.payload.jwks).keys);
  if (why !== undefined) return `${why} (issuer ${iss})`;
  if (m.payload.sub !== subject) return `its sub is ${quote(m.payload.sub ?? null)}`;
  if (m.payload.trust_mark_type !== undefined && m.payload.trust_mark_type !== m.type)
    return `its trust_mark_type claim is ${quote(m.payload.trust_mark_type)}`;
  if (!unexpired(m)) return `it expired at ${String(m.payload.exp)}`;
  return undefined;
}
