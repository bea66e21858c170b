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
  readonly eventsRequested: string[];
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
  /** Acks or setErrs naming a jti never delivered on this stream. */
  readonly unknownJtis: string[];
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
