/**
 * What the mock Transmitter's control routes answer (the control API the caep-receiver suite
 * codes against): shared by the mock and the checks' client.
 */

export type DeliveryKind = "push" | "poll";
export type StreamStatus = "enabled" | "paused" | "disabled";
/** How a request's Authorization compared with the Receiver's token (the token itself is never kept). */
export type AuthSeen = "present" | "absent" | "wrong";

/** One stream the mock knows (SSF stream configuration, seen from the harness). */
export interface StreamView {
  readonly streamId: string;
  readonly delivery: DeliveryKind;
  /** push: the Receiver's endpoint; poll: the mock's poll endpoint for this stream. */
  readonly endpointUrl?: string;
  /** push: the Authorization value the Receiver asked SETs to carry (`authorization_header`). */
  readonly authorization?: string;
  /** What the Receiver asked for; absent when its request named none (the Transmitter then delivers every type it supports). */
  readonly eventsRequested?: string[];
  /** The event types the Transmitter delivers on this stream (SSF §8.1.1 events_delivered). */
  readonly eventsDelivered: string[];
  /** The `aud` SETs of this stream carry. */
  readonly aud: string;
  readonly status: StreamStatus;
  readonly createdBy: "receiver" | "profile";
  /** The last verification request (SSF verification endpoint) and the verification SET it caused. */
  readonly verification?: {
    readonly state?: string;
    readonly requests: number;
    readonly jti?: string;
    /** push: how the Receiver answered the verification SET (or why it could not be pushed). */
    readonly delivery?: PushResult;
  };
  /** The creation request body as the Receiver sent it (parsed JSON); absent for profile streams. */
  readonly request?: unknown;
}

/** How a push of one SET went (RFC 8935 §2): the status and a bounded body, or a transport error. */
export interface PushResult {
  readonly status?: number;
  readonly body?: string;
  readonly error?: string;
}

/** Per jti, what became of a SET queued for polling (RFC 8936 §2.4). */
export interface PollOutcome {
  /** "acked"/"error": the latest delivery was acknowledged / reported in setErrs; else "pending". */
  readonly kind: "acked" | "error" | "pending";
  /** err and description of the last setErrs entry naming it. */
  readonly err?: string;
  readonly description?: string;
  readonly deliveries: number;
  /** Acknowledgements naming it (all of them, a second one for the same delivery included). */
  readonly acks: number;
  /** setErrs entries naming it. */
  readonly errs: number;
  /** Acknowledgements or setErrs naming it while it was not delivered to the Receiver. */
  readonly unsolicited: number;
}

/** A poll request, summarised (RFC 8936 §2.1 members as received, and what the mock answered). */
export interface PollSummary {
  readonly seq: number;
  readonly at: string;
  readonly streamId: string;
  readonly status: number;
  readonly maxEvents?: unknown;
  readonly returnImmediately?: unknown;
  readonly ack?: unknown;
  readonly setErrs?: unknown;
  /** jtis in the answer's `sets`. */
  readonly delivered: string[];
  readonly moreAvailable?: boolean;
  readonly authorization: AuthSeen;
}

/** A poll request as received (bounded), for judging its form. */
export interface PollLogEntry extends PollSummary {
  readonly method: string;
  /** Request headers; authorization replaced by present/absent/wrong, cookies dropped. */
  readonly headers: Record<string, string>;
  /** The parsed body (absent when it was not JSON or over 16 KB). */
  readonly body?: unknown;
  /** Why the body was not read as JSON. */
  readonly parseError?: string;
  /** What is wrong with the request by RFC 8936 §2.1 (member types); empty when nothing is. */
  readonly problems: string[];
  /** Which of the mock's bounds the request went over (it was answered 400 or 413, not applied). */
  readonly overLimit?: string;
  /** Acks or setErrs naming a jti never delivered on this stream. */
  readonly unknownJtis: string[];
}

/** One kind of poll request, counted over every poll of a stream, with its first examples. */
export interface PollTally {
  readonly count: number;
  readonly examples: PollLogEntry[];
}

/**
 * `GET /__idc/poll/stats`: every poll request of one stream, aggregated (the poll log keeps only
 * the latest ones): counts per kind with the first examples, the first requests and the latest.
 */
export interface PollStats {
  readonly streamId: string;
  /** Poll requests to the stream's poll endpoint, any method, any answer. */
  readonly polls: number;
  /** POSTs whose body the mock read (authorized, not too large). */
  readonly read: number;
  /** Polls answered 200 (their ack and setErrs applied). */
  readonly answered: number;
  /** The first requests (up to 50). */
  readonly first: PollLogEntry[];
  /** The latest requests (up to 50). */
  readonly last: PollLogEntry[];
  /** POSTs without an Authorization, or with another than the Receiver's token. */
  readonly authAbsent: PollTally;
  readonly authWrong: PollTally;
  /** Requests by another method than POST. */
  readonly otherMethods: PollTally;
  /** Requests whose body is not what RFC 8936 §2.1 gives (not JSON, not an object, a member of the wrong type). */
  readonly formProblems: PollTally;
  /** Requests over one of the mock's bounds (body size, ack or setErrs entries, jti length): not applied. */
  readonly overLimit: PollTally;
  /** Requests whose ack or setErrs named a jti this stream never held. */
  readonly unknownJtis: PollTally;
  /**
   * Every setErrs entry the Receiver sent: how many, the distinct {err, description} (at most 500;
   * the jti a description names replaced by `<jti>`), and how many were not kept.
   */
  readonly setErrs: {
    readonly total: number;
    readonly distinct: { err?: string; description?: string; count: number; firstSeq: number }[];
    readonly dropped: number;
  };
  /** SETs of the stream acknowledged or reported while not handed out, or acknowledged more often than handed out. */
  readonly ackAnomalies: {
    readonly unsolicited: { readonly count: number; readonly examples: { jti: string; times: number }[] };
    readonly overAcked: {
      readonly count: number;
      readonly examples: { jti: string; acks: number; deliveries: number }[];
    };
  };
}

export interface OutcomesAnswer {
  readonly outcomes: Record<string, PollOutcome>;
  readonly polls: PollSummary[];
}

export interface EmitAnswer {
  readonly jti: string;
  readonly token: string;
  readonly streamId: string;
  readonly delivery: PushResult & { readonly method: DeliveryKind };
}

export interface JwksFetches {
  /** How many times jwks_uri was fetched since the mock started. */
  readonly count: number;
  /** When jwks_uri was fetched (ISO times, the last 200). */
  readonly times: string[];
}

/** `GET /__idc/configuration`: the discovery document as served, what it offers, where it is served. */
export type ConfigurationAnswer = Record<string, unknown> & {
  readonly issuer: string;
  readonly jwks_uri: string;
  readonly delivery_methods_supported: string[];
  readonly configuration_endpoint: string;
  readonly status_endpoint: string;
  readonly add_subject_endpoint: string;
  readonly remove_subject_endpoint: string;
  readonly verification_endpoint: string;
  /** The event types streams offer (events_supported of stream configurations). */
  readonly events_supported: string[];
  /** The pathname the discovery route listens on. */
  readonly discoveryPath: string;
};
