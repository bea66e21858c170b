import type { JSONWebKeySet } from "jose";
import { request } from "undici";
import { ssfConfigurationUrl } from "../../src/protocols/caep.js";
import type { SlotJudgeSource } from "./state.js";

const MAX_DOC = 256 * 1024;
const FETCH_MS = 5000;
/** A key set is fetched again for an unknown kid at most this often (a flood cannot make it fetch). */
const REFRESH_MS = 30_000;
/** After a failed fetch (the Transmitter not up yet), sooner. */
const RETRY_MS = 5000;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

async function getJson(url: string): Promise<unknown> {
  const res = await request(url, {
    method: "GET",
    headers: { accept: "application/json" },
    signal: AbortSignal.timeout(FETCH_MS),
  });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_DOC) {
      res.body.destroy();
      throw new Error(`${url} answered more than ${MAX_DOC} bytes`);
    }
    chunks.push(chunk);
  }
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    throw new Error(`${url} did not answer JSON`);
  }
}

/**
 * The standalone mock's judge: the Transmitter's keys, found through its discovery document
 * (SSF §7: `/.well-known/ssf-configuration` after the host, then `jwks_uri`). Fetched on the
 * first SET and again, at most every 30 s (5 s while it has none), when a SET names a kid the set lacks; bounded in
 * size and time, redirects not followed. A failure leaves the SETs unverified and is told once
 * per fetch through `onProblem`.
 */
export function issuerKeys(issuer: string, onProblem: (message: string) => void): SlotJudgeSource {
  let keys: JSONWebKeySet | null = null;
  let fetchedAt = -Infinity;
  let pending: Promise<void> | undefined;

  const fetchKeys = async (): Promise<void> => {
    fetchedAt = Date.now();
    try {
      const doc = await getJson(ssfConfigurationUrl(issuer));
      const uri = isObject(doc) ? doc.jwks_uri : undefined;
      if (typeof uri !== "string" || !URL.canParse(uri))
        throw new Error("the discovery document has no jwks_uri URL");
      const set = await getJson(uri);
      if (!isObject(set) || !Array.isArray(set.keys)) throw new Error(`${uri} is not a JWK set`);
      keys = { keys: set.keys.filter(isObject) } as JSONWebKeySet;
    } catch (e) {
      onProblem(`could not fetch the Transmitter's keys: ${(e as Error).message}`);
    }
  };

  return {
    issuer,
    keys: async (kid) => {
      const known = keys !== null && (kid === undefined || keys.keys.some((k) => k.kid === kid));
      if (!known && Date.now() - fetchedAt >= (keys === null ? RETRY_MS : REFRESH_MS))
        pending ??= fetchKeys().finally(() => (pending = undefined));
      if (pending) await pending;
      return keys;
    },
  };
}
