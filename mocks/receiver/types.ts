import type { JSONWebKeySet } from "jose";

/**
 * What the mock Receiver's control routes answer (the control API the caep-transmitter suite
 * codes against): shared by the mock and the checks' client (client.ts).
 */

/** How a push's Authorization compared with the one the slot was given (the value itself is never kept). */
export type AuthSeen = "present" | "absent" | "wrong";

/**
 * The rules the SET validator judges (validator.ts), one per requirement of "every SET":
 * "txn" and "one-event" are SHOULDs; "malformed" is a token that is no JWS at all.
 */
export type SetRule =
  | "malformed"
  | "signature"
  | "typ"
  | "iss"
  | "aud"
  | "iat"
  | "jti"
  | "jti-unique"
  | "sub"
  | "exp"
  | "sub_id"
  | "events"
  | "event-claims"
  | "reason-maps"
  | "txn"
  | "one-event";

export interface SetProblem {
  readonly rule: SetRule;
  /** What is wrong, naming the claim; never the token or a key. */
  readonly message: string;
}

/** What a slot judges SETs against, when it judges them (issuer and the Transmitter's public keys). */
export interface SlotJudge {
  readonly issuer: string;
  /** The Transmitter's public JWKS (jwks_uri). */
  readonly jwks: JSONWebKeySet;
  /** The stream's `aud`; absent: any aud is accepted (presence is still judged). */
  readonly audience?: string | string[];
}

/** `POST /__idc/slots`: a push endpoint for one stream. */
export interface SlotRequest {
  /**
   * The Authorization value the Transmitter was given at stream creation (a secret; the
   * mock compares pushes with it and never prints or returns it). Absent: any or none accepted.
   */
  readonly authorization?: string;
  /** With it, every SET received on the slot carries `problems` (validator.ts). */
  readonly judge?: SlotJudge;
}

export interface SlotCreated {
  readonly slot: string;
  /** The `endpoint_url` to give the Transmitter (under the mock's publicUrl). */
  readonly endpointUrl: string;
}

/**
 * `POST /__idc/slots/<slot>/respond`: how the next `times` pushes (default 1) are answered,
 * ahead of the Authorization check. `status` 400 carries `{err, description}` (RFC 8935 §2.3);
 * 429/503 carry `Retry-After: <retryAfter>` when given; `delayMs` alone delays the normal answer.
 */
export interface RespondBehaviour {
  readonly status?: number;
  readonly err?: string;
  readonly description?: string;
  /** Seconds, sent as `Retry-After` (RFC 9110 §10.2.3). */
  readonly retryAfter?: number;
  /** Delay before answering, at most 30 s. */
  readonly delayMs?: number;
  /** How many pushes this applies to (1 to 1000, default 1). */
  readonly times?: number;
}

/** Bytes and counts of everything pushed to a slot (or the mock), over-cap bodies included. */
export interface FloodStats {
  /** Pushes received (every request to the push endpoint). */
  readonly count: number;
  /** Body bytes read (an over-cap body is read and dropped up to 4 MiB, then its connection goes). */
  readonly bytes: number;
  /** Bodies over the 64 KiB cap (answered 413, counted, not stored). */
  readonly overCap: number;
}

export interface SlotStats {
  readonly slot: string;
  readonly endpointUrl: string;
  readonly flood: FloodStats;
  /** Pushes stored in the log now (at most 1000 per slot, 5000 in all). */
  readonly stored: number;
  /** Pushes dropped from the log to keep it bounded (oldest first). */
  readonly evicted: number;
  /** How many pushes got each status ("202": n). */
  readonly answered: Record<string, number>;
  /** SETs judged (the slot has a judge) and how many had a problem, per rule. */
  readonly judged: number;
  readonly withProblems: number;
  readonly byRule: Partial<Record<SetRule, number>>;
  /** Armed behaviours not used yet. */
  readonly armed: number;
}

/** `GET /__idc/stats`: the whole mock. */
export interface ReceiverStats {
  readonly flood: FloodStats;
  /** Pushes to a slot that does not exist (404). */
  readonly unknownSlot: number;
  readonly stored: number;
  readonly slots: SlotStats[];
}

/** One push the mock received within the body cap (`GET /__idc/slots/<slot>/sets`). */
export interface ReceivedSet {
  /** Increasing over the whole mock: `since` takes it. */
  readonly seq: number;
  readonly at: string;
  readonly slot: string;
  readonly method: string;
  /** The body as received: the compact SET (or whatever the Transmitter sent). */
  readonly token: string;
  /** Decoded JOSE header and claims; absent when the body is no decodable JWT. */
  readonly header?: Record<string, unknown>;
  readonly payload?: Record<string, unknown>;
  readonly jti?: string;
  /** The event type URIs of `events`. */
  readonly events?: string[];
  /** The status the mock answered. */
  readonly status: number;
  /** Request headers: authorization replaced by present/absent/wrong, cookies dropped. */
  readonly headers: Record<string, string>;
  readonly contentType?: string;
  readonly authorization: AuthSeen;
  /** The armed behaviour this push used, if any. */
  readonly armed?: RespondBehaviour;
  /**
   * The validator's verdict (validator.ts; empty: a valid SET). Without a judge the slot
   * judges the claims alone: `verified` false, `iss` and `aud` only by form.
   */
  readonly problems?: SetProblem[];
  /** The signature verified with a key of the slot's judge. */
  readonly verified?: boolean;
}
