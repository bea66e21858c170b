import type { JWK } from "jose";
import type { Details } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { Fed, readEntityConfiguration, STATEMENT_TYPE, wellKnownUrl, type Ctx } from "../client.js";
import { decodeStatement, isObject, LEEWAY, now, verifyWith, type Json } from "../statements.js";
import { PROPERTY_PAGES } from "../walk.js";
import { collectingAnchor, walkCollection, type CollPage, type CollWalk } from "./collection.js";

/** The informational claims specs/001 names for an Entity Type Info (Entity Type Info object; Mapping). */
export const UI_CLAIMS = [
  "display_name",
  "description",
  "keywords",
  "logo_uri",
  "policy_uri",
  "information_uri",
] as const;

/** The claims specs/001 Mapping copies from the same-named metadata claim. */
export const COPIED_CLAIMS = ["description", "keywords", "logo_uri", "policy_uri", "information_uri"];

/** Where display_name may come from when an entity type sets none (specs/001 Mapping). */
export const DISPLAY_FALLBACK: Readonly<Record<string, string>> = {
  openid_relying_party: "client_name",
  oauth_client: "client_name",
  oauth_resource: "resource_name",
};

/** A claim key split at its first "#": the claim name and its BCP47 language tag, if any (Language variants). */
export function splitKey(key: string): { name: string; tag: string | undefined } {
  const i = key.indexOf("#");
  return i < 0 ? { name: key, tag: undefined } : { name: key.slice(0, i), tag: key.slice(i + 1) };
}

/**
 * RFC 4647 §3.3.1 basic filtering, as specs/001 (Endpoints: Entity collection, locale) cites it:
 * ignoring case, a range matches a tag equal to it or one that continues it after a "-"
 * (de matches de and de-CH, not den); "*" matches every tag.
 */
export function rangeMatches(range: string, tag: string): boolean {
  const r = range.toLowerCase();
  const t = tag.toLowerCase();
  return r === "*" || r === t || t.startsWith(`${r}-`);
}

/** Names a target sent, for a finding: the first few, each cut short, and how many more. */
export function few(xs: readonly string[], n = 8): string {
  const shown = xs.slice(0, n).map((x) => (x.length > 80 ? `${x.slice(0, 80)}…` : x));
  return `${shown.join(", ")}${xs.length > n ? ` and ${xs.length - n} more` : ""}`;
}

/** Whether `info` (an Entity Type Info or metadata object) has claim `name`, untagged or in a language. */
export function hasClaim(info: Json, name: string): boolean {
  return Object.keys(info).some((k) => splitKey(k).name === name);
}

/** The Entity Type Info objects of an Entity Info (`entity_infos` members with an object value). */
export function infosOf(entity: Json): Map<string, Json> {
  const infos = entity.entity_infos;
  if (!isObject(infos)) return new Map();
  return new Map(Object.entries(infos).flatMap(([t, v]) => (isObject(v) ? [[t, v] as const] : [])));
}

/** One Entity Info as a walk saw it, with the page that carried it. */
export interface SeenEntity {
  readonly id: string;
  readonly e: Json;
  readonly res: HttpResponse;
}

/** Every Entity Info of a walk with its page (the first time each entity_id shows). */
export function entitiesOf(w: CollWalk): SeenEntity[] {
  const out = new Map<string, SeenEntity>();
  for (const p of w.pages as readonly CollPage[])
    for (const e of p.entities)
      if (typeof e.entity_id === "string" && !out.has(e.entity_id))
        out.set(e.entity_id, { id: e.entity_id, e, res: p.res });
  return [...out.values()];
}

/** A refusal as `code` (an error answer naming it), e.g. unsupported_parameter. */
export function refusedAs(res: HttpResponse, code: string): boolean {
  return res.status >= 400 && res.status < 500 && isObject(res.json) && res.json.error === code;
}

/** What one entity publishes about itself: its Entity Configuration's metadata, read and verified. */
export interface Published {
  readonly id: string;
  readonly res: HttpResponse;
  /** metadata: Entity Type Identifier → metadata object. */
  readonly metadata: ReadonlyMap<string, Json>;
  /** A Trust Mark of its Entity Configuration is available: unexpired, about it, signed by the target. */
  readonly markAvailable: boolean;
}

/** The Entity Configurations of the entities a collection listed, within walk.fetchMax. */
export interface PublishedSweep {
  readonly byId: ReadonlyMap<string, Published>;
  /** Entities whose Entity Configuration could not be read or verified, and why. */
  readonly unread: ReadonlyMap<string, string>;
  /** Entities left unread because of suites.federation.walk.fetchMax. */
  readonly beyond: number;
}

/** Trust Marks looked at per Entity Configuration (a hostile one may carry thousands). */
const MAX_MARKS = 50;

/** Issuers whose Trust Marks can be verified here: Entity Identifier → its Entity Configuration's keys. */
export type Issuers = ReadonlyMap<string, readonly JWK[]>;

async function markAvailable(id: string, marks: unknown, issuers: Issuers): Promise<boolean> {
  if (!Array.isArray(marks)) return false;
  for (const m of marks.slice(0, MAX_MARKS)) {
    if (!isObject(m) || typeof m.trust_mark !== "string") continue;
    const d = decodeStatement(m.trust_mark);
    const keys = d.ok && typeof d.payload.iss === "string" ? issuers.get(d.payload.iss) : undefined;
    if (!d.ok || keys === undefined || d.payload.sub !== id) continue;
    if (d.payload.exp !== undefined && !(typeof d.payload.exp === "number" && d.payload.exp > now() - LEEWAY))
      continue;
    if ((await verifyWith(m.trust_mark, d.header, keys)) === undefined) return true;
  }
  return false;
}

/**
 * Reads the Entity Configuration of each entity (`<entity_id>/.well-known/openid-federation`),
 * verified with its own jwks and about itself (iss = sub = the entity), for the first
 * walk.fetchMax of `ids`. A Trust Mark counts as available only when unexpired and signed by one
 * of `issuers` (the target, its Trust Anchor): marks of other issuers are not judged here.
 */
export async function readPublished(
  c: Ctx,
  ids: readonly string[],
  issuers: Issuers,
): Promise<PublishedSweep> {
  const byId = new Map<string, Published>();
  const unread = new Map<string, string>();
  const unique = [...new Set(ids)];
  const sample = unique.slice(0, c.profile.walk.fetchMax);
  for (const id of sample) {
    let url: URL | undefined;
    try {
      url = new URL(wellKnownUrl(id));
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== "https:" && url.protocol !== "http:")) {
      unread.set(id, `the entity_id ${quote(id, 80)} is not an http(s) URL`);
      continue;
    }
    // One of many alike: shown in the report only when a finding cites it (the first always).
    const res = await c.http.get(url.href, {
      label: `Entity Configuration of ${id.slice(0, 200)}`,
      headers: { accept: STATEMENT_TYPE },
      ...(byId.size + unread.size > 0 ? { evidence: "if-cited" as const } : {}),
    });
    if (res.status !== 200) {
      unread.set(id, `its Entity Configuration answered ${res.status}`);
      continue;
    }
    const ec = await readEntityConfiguration(res);
    if (ec.unverified !== undefined) {
      unread.set(id, `its Entity Configuration does not verify with its own jwks (${ec.unverified})`);
      continue;
    }
    if (ec.payload.iss !== id || ec.payload.sub !== id) {
      unread.set(
        id,
        `its Entity Configuration has iss ${quote(ec.payload.iss ?? null, 80)}, sub ${quote(ec.payload.sub ?? null, 80)}`,
      );
      continue;
    }
    const md = isObject(ec.payload.metadata) ? ec.payload.metadata : {};
    byId.set(id, {
      id,
      res,
      metadata: new Map(Object.entries(md).flatMap(([t, v]) => (isObject(v) ? [[t, v] as const] : []))),
      markAvailable: await markAvailable(id, ec.payload.trust_marks, issuers),
    });
  }
  return { byId, unread, beyond: unique.length - sample.length };
}

/**
 * Says which requirements could be judged only on part of the entities (unread Entity
 * Configurations, or past walk.fetchMax): they can then still fail, but never pass.
 */
export function partlyPublished(c: Ctx, sweep: PublishedSweep, requirements: readonly string[]): void {
  const parts: string[] = [];
  if (sweep.unread.size > 0) {
    const [id, why] = [...sweep.unread][0]!;
    parts.push(
      `${sweep.unread.size} entities' Entity Configurations could not be used (the first, ${quote(id, 80)}: ${why})`,
    );
  }
  if (sweep.beyond > 0)
    parts.push(`${sweep.beyond} entities past suites.federation.walk.fetchMax were not compared`);
  if (parts.length === 0) return;
  for (const r of requirements) c.partly(r, parts.join("; "), "not-exercised");
}

/** What the claims and locale checks compare with: the plain collection and what its entities publish. */
export interface Basis {
  readonly url: string;
  /** trust_anchor, when the target collects under another anchor than itself. */
  readonly ta: readonly (readonly [string, string])[];
  /**
   * The walk without parameters (the responder's default answer): its ids all, its entities whole
   * only for the first walk.fetchMax (those whose Entity Configurations are read).
   */
  readonly base: CollWalk;
  /** The last_updated values of the default answer's pages (JSON), to tell a page of changed data. */
  readonly baseStamps: ReadonlySet<string>;
  /** The Entity Info objects kept of the default answer (the first walk.fetchMax). */
  readonly entities: readonly SeenEntity[];
  readonly byId: ReadonlyMap<string, SeenEntity>;
  readonly sweep: PublishedSweep;
}

/** The collection endpoint, and the Trust Anchor it is asked to collect under. */
export interface CollectionTarget {
  readonly f: Fed;
  readonly url: string;
  /** trust_anchor, when the target collects under another anchor than itself. */
  readonly ta: readonly (readonly [string, string])[];
  /** Keys that verify Trust Marks: the target's, and its Trust Anchor's. */
  readonly issuers: Issuers;
}

/** The collection endpoint of the (verified) Entity Configuration and its Trust Anchor. */
export async function collectionTarget(c: Ctx): Promise<CollectionTarget> {
  const f = new Fed(c);
  const ec = await f.trusted();
  const url = await f.endpoint("federation_collection_endpoint");
  const coll = await collectingAnchor(c, f);
  const issuers = new Map<string, readonly JWK[]>([[f.entityId, ec.keys]]);
  if (!coll.own) {
    const res = await c.http.get(wellKnownUrl(coll.anchor), {
      label: `Entity Configuration of the Trust Anchor ${coll.anchor}`,
      headers: { accept: STATEMENT_TYPE },
    });
    const anchor = await readEntityConfiguration(res);
    if (res.status === 200 && anchor.unverified === undefined) issuers.set(coll.anchor, anchor.keys);
  }
  return { f, url, ta: coll.params, issuers };
}

/**
 * The reference for the claims and locale checks: the collection walked without parameters, and
 * the Entity Configurations of the entities it lists. Skips the check when the collection cannot
 * be walked (FED-COLL-OK and the paging requirements judge that) or lists nothing.
 */
export async function collectionBasis(c: Ctx): Promise<Basis> {
  const t = await collectionTarget(c);
  // The entities compared with their own Entity Configurations are the first walk.fetchMax: only
  // those are kept whole (a collection of 100,000 is not held); past them partlyPublished says so.
  const base = await walkCollection(c, t.url, undefined, "collection", t.ta, {
    keep: c.profile.walk.fetchMax,
  });
  if (base.stopped !== undefined)
    c.skip(
      `the collection walk without parameters did not end (${base.stopped}): see FED-COLL-OK`,
      "dependency",
    );
  if (base.ids.length === 0) c.skip("the collection lists no entity: no Entity Info to judge", "other");
  const entities = entitiesOf(base);
  const sweep = await readPublished(c, base.ids, t.issuers);
  const baseStamps = new Set(
    base.pages.filter((p) => p.shape === undefined).map((p) => JSON.stringify(p.lastUpdated ?? null)),
  );
  return {
    url: t.url,
    ta: t.ta,
    base,
    baseStamps,
    entities,
    byId: new Map(entities.map((x) => [x.id, x])),
    sweep,
  };
}

/**
 * The data changed during or since the reference walk (last_updated moved) by the time `page`
 * was read: its comparisons with the default answer are void.
 */
export function changedAt(b: Basis, page: CollPage): boolean {
  return b.baseStamps.size > 1 || !b.baseStamps.has(JSON.stringify(page.lastUpdated ?? null));
}

/**
 * The walks with parameters a check may make in its page budget (walk.ts PROPERTY_PAGES) when each
 * takes about as many pages as the default answer, beside `fixed` walks it makes anyway: at
 * least one, at most `asked`. A note says when fewer than asked.
 */
export function runsWithin(c: Ctx, b: Basis, asked: number, fixed: number, what: string): number {
  const pages = Math.max(1, b.base.pages.length);
  const runs = Math.max(1, Math.min(asked, Math.floor(PROPERTY_PAGES / pages) - fixed));
  if (runs < asked)
    c.note(
      `the collection takes ${pages} pages a walk: ${runs} ${what} of ${asked}, so that the walks stay near ${PROPERTY_PAGES} pages`,
    );
  return runs;
}

/**
 * Tallies one requirement over many items: how many were judged, how many violated it, and the
 * finding of the smallest request (`size`, e.g. the number of claims asked) that shows it.
 */
export class Tally {
  /** With `c`, the page a first finding cites is kept in the report when its walk frees the others. */
  constructor(private readonly c?: Ctx) {}

  private readonly judged = new Map<string, number>();
  private readonly bad = new Map<string, number>();
  private readonly first = new Map<string, { d: Details; size: number; source?: HttpResponse }>();

  /**
   * One item of `id` judged, and what is wrong with it (undefined when nothing); `source`, the
   * exchange the judgement compared with (an Entity Configuration), joins the evidence when this
   * becomes the finding shown.
   */
  see(id: string, problem: Details | undefined, size = 0, source?: HttpResponse): boolean {
    this.judged.set(id, (this.judged.get(id) ?? 0) + 1);
    if (problem === undefined) return true;
    this.bad.set(id, (this.bad.get(id) ?? 0) + 1);
    const had = this.first.get(id);
    if (had === undefined || size < had.size) {
      this.first.set(id, { d: problem, size, ...(source ? { source } : {}) });
      if (problem.res !== undefined) this.c?.http.keepEvidence(problem.res.exchangeId);
    }
    return false;
  }

  /** Decides `id`: skipped when nothing was judged, else met only when no item violated it. */
  decide(c: Ctx, id: string, what: string, seed?: number): void {
    const n = this.judged.get(id) ?? 0;
    if (n === 0) {
      c.skipOnly(id, `no ${what} to judge`, "other");
      return;
    }
    const f = this.first.get(id);
    const bad = this.bad.get(id) ?? 0;
    if (f?.source !== undefined) c.http.keepEvidence(f.source.exchangeId);
    c.check(
      id,
      f === undefined,
      f === undefined
        ? {}
        : {
            ...f.d,
            message: `${bad} of ${n} ${what} violate it; the first shown${seed !== undefined ? ` (seed ${seed})` : ""}`,
          },
    );
  }
}
