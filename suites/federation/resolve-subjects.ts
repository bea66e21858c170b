import type { JWK } from "jose";
import { quote } from "../../src/engine/quote.js";
import { readEntityConfiguration, STATEMENT_TYPE, wellKnownUrl, type Ctx, type Fed } from "./client.js";
import { getList, listJson, withQuery } from "./checks/fetch-list.js";
import { isObject, type Json } from "./statements.js";
import { readChain, type ReadChain } from "./trust-chain.js";

/** Levels of authority_hints followed up from the target to a Trust Anchor. */
const MAX_LEVELS = 8;
/** Immediate Subordinates whose Entity Configurations are read to choose the subjects from. */
const CANDIDATES_PER_SUBJECT = 4;
/** Intermediates below the target whose own lists give subjects two levels down, and how many each. */
const MAX_INTERMEDIATES = 2;
const PER_INTERMEDIATE = 2;
/** Entity Configurations read to find whether an entity lies below an anchor. */
const MAX_CLIMB = 20;

/** An Entity Configuration as read (its text, for a chain the harness builds), verified with its own jwks. */
interface ReadEc {
  readonly text: string;
  readonly payload: Json;
  readonly keys: readonly JWK[];
}

/** The Trust Anchor the target is asked to resolve under, and the entities from the target up to it. */
export interface Anchor {
  readonly id: string;
  readonly keys: readonly JWK[];
  readonly payload: Json;
  /** The superiors from the target's Immediate Superior up to the anchor (empty: the target is the anchor). */
  readonly above: readonly string[];
}

/** One entity resolved: its identifier and its superiors from the Immediate one up to the anchor. */
export interface Subject {
  readonly id: string;
  readonly superiors: readonly string[];
  /** Its own Entity Configuration as the harness read it (verified), if it could. */
  readonly ec: Json | undefined;
}

/**
 * Reads Entity Configurations for the resolve check, each once: verified with their own jwks
 * and about themselves, bounded by the client's size and time limits.
 */
export class Configurations {
  private readonly read = new Map<string, Promise<ReadEc | string>>();

  constructor(private readonly c: Ctx) {}

  /** Adopts an Entity Configuration the check already holds. */
  adopt(id: string, text: string, payload: Json, keys: readonly JWK[]): void {
    this.read.set(id, Promise.resolve({ text, payload, keys }));
  }

  get(id: string, label: string): Promise<ReadEc | string> {
    let p = this.read.get(id);
    if (!p) this.read.set(id, (p = this.fetch(id, label)));
    return p;
  }

  private async fetch(id: string, label: string): Promise<ReadEc | string> {
    if (!/^https?:\/\//.test(id)) return `${quote(id, 80)} is not an http(s) URL`;
    let res;
    try {
      res = await this.c.http.get(wellKnownUrl(id), { label, headers: { accept: STATEMENT_TYPE } });
    } catch (e) {
      if (this.c.signal.aborted) throw e;
      return `its Entity Configuration could not be fetched (${e instanceof Error ? e.message.slice(0, 120) : "error"})`;
    }
    if (res.status !== 200) return `its Entity Configuration answered ${res.status}`;
    const ec = await readEntityConfiguration(res);
    if (ec.unverified !== undefined) return `its Entity Configuration does not verify (${ec.unverified})`;
    if (ec.payload.iss !== id || ec.payload.sub !== id)
      return `its Entity Configuration is about ${quote(ec.payload.sub ?? null, 80)}`;
    return { text: res.text.trim(), payload: ec.payload, keys: ec.keys };
  }
}

const federationEntity = (ec: Json): Json =>
  isObject(ec.metadata) && isObject(ec.metadata.federation_entity) ? ec.metadata.federation_entity : {};

/**
 * The anchor: the target itself when it is a Trust Anchor, else the first Trust Anchor its
 * authority_hints lead to (each level's first hint, each Entity Configuration verified with its
 * own keys), as collection-anchors finds it. Undefined, with why, when none is reached.
 */
export async function findAnchor(c: Ctx, f: Fed, ecs: Configurations): Promise<Anchor | string> {
  const own = await f.trusted();
  if ((await f.role()) === "anchor")
    return { id: f.entityId, keys: own.keys, payload: own.payload, above: [] };
  const above: string[] = [];
  let payload = own.payload;
  for (let level = 0; level < MAX_LEVELS; level++) {
    const hints = payload.authority_hints;
    const up = Array.isArray(hints)
      ? hints.find((h) => typeof h === "string" && !above.includes(h))
      : undefined;
    if (typeof up !== "string")
      return `authority_hints ${quote(hints ?? null, 80)} lead to no further superior`;
    above.push(up);
    const ec = await ecs.get(up, `Entity Configuration of ${up} (a superior)`);
    if (typeof ec === "string") return `the superior ${up}: ${ec}`;
    if (ec.payload.authority_hints === undefined)
      return { id: up, keys: ec.keys, payload: ec.payload, above };
    payload = ec.payload;
  }
  return `no Trust Anchor within ${MAX_LEVELS} levels of authority_hints`;
}

const marked = (s: Subject): boolean => Array.isArray(s.ec?.trust_marks) && s.ec.trust_marks.length > 0;

/**
 * Whether `id` lies below `anchor`, climbing every authority_hints (at most MAX_CLIMB Entity
 * Configurations); undefined when that cannot be told (one could not be read, or the bound).
 */
export async function isBelow(id: string, anchor: string, ecs: Configurations): Promise<boolean | undefined> {
  const seen = new Set<string>([id]);
  const queue = [id];
  while (queue.length > 0) {
    if (seen.size > MAX_CLIMB) return undefined;
    const ec = await ecs.get(queue.shift()!, `Entity Configuration of a superior of ${id.slice(0, 120)}`);
    if (typeof ec === "string") return undefined;
    const hints = ec.payload.authority_hints;
    if (hints === undefined) continue;
    if (!Array.isArray(hints)) return undefined;
    for (const h of hints.slice(0, MAX_CLIMB)) {
      if (h === anchor) return true;
      if (typeof h === "string" && !seen.has(h)) {
        seen.add(h);
        queue.push(h);
      }
    }
  }
  return false;
}

/** The Immediate Subordinates a list endpoint names, or why not (bounded like the base list). */
async function listed(c: Ctx, url: string, label: string): Promise<string[] | string> {
  const res = await getList(c, url, { label });
  if ("over" in res) return res.over;
  const { json, error } = listJson(c, res);
  if (res.status !== 200 || !Array.isArray(json))
    return `${label} answered ${res.status} ${error ?? quote(json, 80)}`;
  return json.filter((x): x is string => typeof x === "string");
}

/**
 * A bounded sample of subjects (`resolve.subjects`): from the target's base list, the
 * Intermediates first, up to PER_INTERMEDIATE Subordinates of each found through that
 * Intermediate's own list (two levels down, where an Intermediate's metadata_policy applies;
 * those with Trust Marks first), then subordinates whose Entity Configurations carry Trust Marks,
 * then the others, in list order. `undefined` with why when
 * the target's list cannot be read.
 */
export async function chooseSubjects(
  c: Ctx,
  f: Fed,
  anchor: Anchor,
  ecs: Configurations,
): Promise<{ subjects: Subject[]; notes: string[] } | string> {
  const max = c.profile.resolve.subjects;
  const notes: string[] = [];
  const ids = await listed(c, await f.endpoint("federation_list_endpoint"), "base list");
  if (typeof ids === "string") return ids;
  const up = [f.entityId, ...anchor.above];
  const candidates: Subject[] = [];
  for (const id of [...new Set(ids)].slice(0, max * CANDIDATES_PER_SUBJECT)) {
    const ec = await ecs.get(id, `Entity Configuration of ${id.slice(0, 160)}`);
    candidates.push({ id, superiors: up, ec: typeof ec === "string" ? undefined : ec.payload });
  }
  const intermediates = candidates
    .filter((s) => s.ec && typeof federationEntity(s.ec).federation_list_endpoint === "string")
    .slice(0, MAX_INTERMEDIATES);
  const below: Subject[] = [];
  for (const i of intermediates) {
    const url = federationEntity(i.ec!).federation_list_endpoint as string;
    const theirs = /^https?:\/\//.test(url)
      ? await listed(c, url, `base list of ${i.id}`)
      : `${quote(url)} is no URL`;
    if (typeof theirs === "string") {
      notes.push(`the list of the Intermediate ${i.id} could not be read: ${theirs}`);
      continue;
    }
    const mine: Subject[] = [];
    for (const id of theirs.filter((x) => x !== i.id).slice(0, max * CANDIDATES_PER_SUBJECT)) {
      const ec = await ecs.get(id, `Entity Configuration of ${id.slice(0, 160)}`);
      mine.push({ id, superiors: [i.id, ...up], ec: typeof ec === "string" ? undefined : ec.payload });
    }
    // Those with Trust Marks first: every mark a resolve response carries is judged.
    below.push(...[...mine.filter(marked), ...mine.filter((x) => !marked(x))].slice(0, PER_INTERMEDIATE));
  }
  if (below.length === 0)
    notes.push("no subject two levels below the target (no Intermediate below it lists one)");
  const leaves = candidates.filter((s) => !intermediates.includes(s));
  const ordered = [...intermediates, ...below, ...leaves.filter(marked), ...leaves.filter((x) => !marked(x))];
  if (ids.length > candidates.length || ordered.length > max)
    notes.push(
      `${Math.min(max, ordered.length)} of the ${ordered.length} entities considered resolved (${ids.length} listed; suites.federation.resolve.subjects)`,
    );
  return { subjects: ordered.slice(0, max), notes };
}

/**
 * The Trust Chain the harness builds itself for `s` (Trust Chain; Fetch): its Entity
 * Configuration, the Subordinate Statement each superior's fetch endpoint gives about the entity
 * below it, and the anchor's Entity Configuration. Why not, when a piece cannot be had.
 */
export async function ownChain(
  c: Ctx,
  s: Subject,
  anchor: Anchor,
  ecs: Configurations,
): Promise<ReadChain | string> {
  const first = await ecs.get(s.id, `Entity Configuration of ${s.id.slice(0, 160)}`);
  if (typeof first === "string") return `${s.id}: ${first}`;
  const tokens: string[] = [first.text];
  let below = s.id;
  for (const issuer of s.superiors) {
    const ec = await ecs.get(issuer, `Entity Configuration of ${issuer.slice(0, 160)}`);
    if (typeof ec === "string") return `${issuer}: ${ec}`;
    const url = federationEntity(ec.payload).federation_fetch_endpoint;
    if (typeof url !== "string" || !/^https?:\/\//.test(url))
      return `${issuer} publishes no federation_fetch_endpoint URL`;
    const res = await c.http.get(withQuery(url, [["sub", below]]), {
      label: `fetch ${below.slice(0, 160)} from ${issuer.slice(0, 160)} (the harness's own chain)`,
    });
    if (res.status !== 200) return `the fetch of ${below} from ${issuer} answered ${res.status}`;
    tokens.push(res.text.trim());
    below = issuer;
  }
  const top = await ecs.get(anchor.id, `Entity Configuration of ${anchor.id.slice(0, 160)}`);
  if (typeof top === "string") return `${anchor.id}: ${top}`;
  tokens.push(top.text);
  return readChain(tokens);
}
