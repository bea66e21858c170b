import { describe, expect, it } from "vitest";
import type { HttpResponse } from "../../src/http/client.js";
import {
  BARRIER,
  DeliveryModel,
  triggerText,
  type DefaultSubjects,
  type Status,
  type Trigger,
  type Violation,
} from "../../suites/caep-transmitter/model/delivery-model.js";
import { freshMarker, markedEvent, markerOf } from "../../suites/caep-transmitter/model/markers.js";
import { RunTally, sequenceText } from "../../suites/caep-transmitter/model/run-tally.js";
import type { CollectedSet } from "../../suites/caep-transmitter/sets.js";

// The lifecycle model (suites/caep-transmitter/model/delivery-model.ts) driven by hand, with no
// HTTP: each scenario below plays what the stream driver would feed it (status changes, subject
// changes, triggers, SETs handed out, acknowledgements) and asserts the verdicts. The expected
// verdicts are written from the rules (SSF 1.0 §7.1 default_subjects, §8.1.2.1 stream status,
// §8.1.3 subjects, §9.3 removed subjects; RFC 8936 §2.1/§2.4 and RFC 8935 §2 acknowledgement;
// the CAEPT-LIFECYCLE-* requirement texts), not read back from the model.

const SUBJECTS = "CAEPT-LIFECYCLE-SUBJECTS";
const PAUSED = "CAEPT-LIFECYCLE-PAUSED";
const DISABLED = "CAEPT-LIFECYCLE-DISABLED";
const ONCE = "CAEPT-LIFECYCLE-EXACTLY-ONCE";

const SLOTS = 3;

/**
 * A fresh model for one run: poll delivery and default_subjects NONE unless told ("absent": the
 * discovery document gives no default_subjects).
 */
function model(ds: Exclude<DefaultSubjects, undefined> | "absent" = "NONE", push = false): DeliveryModel {
  return new DeliveryModel(SLOTS, ds === "absent" ? undefined : ds, push);
}

/** Triggers an event about `slot` with a fixed marker (the n-th trigger of the run). */
function fire(m: DeliveryModel, slot: number): Trigger {
  return m.trigger(slot, `idc-${m.triggers.length + 1}-fixed`);
}

/** The jti a test gives a trigger's first SET. */
const jtiOf = (t: Trigger): string => `jti-${t.n}`;

/** The stream hands out a SET of `t` (by default under its own jti, while the stream is as the model says). */
function deliver(
  m: DeliveryModel,
  t: Trigger,
  opts: { jti?: string; status?: Status | "changing"; res?: HttpResponse } = {},
): string {
  const jti = opts.jti ?? jtiOf(t);
  m.arrived({
    jti,
    trigger: t,
    status: opts.status ?? m.status,
    ...(opts.res !== undefined ? { res: opts.res } : {}),
  });
  return jti;
}

/** The end of a run as the driver makes it: enabled again, then judged. */
function finish(m: DeliveryModel, res?: HttpResponse): Violation[] {
  if (m.status !== "enabled") m.setStatus("enabled");
  return m.finish(res);
}

const ids = (vs: readonly Violation[]): string[] => vs.map((v) => v.id);

/** A poll answer to cite as evidence. */
function fakeRes(exchangeId: number): HttpResponse {
  return {
    status: 200,
    headers: {},
    text: '{"sets":{}}',
    bytes: 11,
    exchangeId,
    header: () => undefined,
    json: { sets: {} },
    jsonError: undefined,
  };
}

describe("DeliveryModel: a correct Transmitter", () => {
  it("a full poll run delivered as the rules want yields no violation and exercises every rule", () => {
    const m = model("NONE", false);
    m.add(0);
    const inStream = fire(m, 0);
    const neverAdded = fire(m, 1);
    // Handed out, not acknowledged, handed out again under the same jti (RFC 8936 redelivery), acknowledged.
    deliver(m, inStream);
    deliver(m, inStream);
    m.ack([jtiOf(inStream)]);
    m.setStatus("disabled");
    const whileDisabled = fire(m, 0);
    m.readWhileStopped();
    m.setStatus("enabled");
    m.add(2);
    const second = fire(m, 2);
    m.remove(0);
    const aboutRemoved = fire(m, 0);
    m.verify();
    m.arrived({ jti: "v-1", verification: { state: "st" }, status: "enabled" });
    deliver(m, second);
    m.ack([jtiOf(second), "v-1"]);
    m.setStatus("paused");
    const heldFirst = fire(m, 2);
    const heldLast = fire(m, 2);
    m.readWhileStopped();
    m.setStatus("enabled");
    deliver(m, heldLast);
    const barrier = m.trigger(BARRIER, "idc-barrier-fixed");
    deliver(m, barrier);
    m.ack([jtiOf(heldLast), jtiOf(barrier)]);

    expect(m.finish()).toEqual([]);
    expect(m.dropped).toBe(0);
    expect([...m.exercised].sort()).toEqual([DISABLED, ONCE, PAUSED, SUBJECTS].sort());
    expect(inStream.jtis).toEqual([jtiOf(inStream)]);
    expect(neverAdded.jtis).toEqual([]);
    expect(whileDisabled.jtis).toEqual([]);
    expect(aboutRemoved.jtis).toEqual([]);
    expect(heldFirst.jtis).toEqual([]);
    expect(m.verifications).toEqual({ requested: 1, arrived: 1 });
    expect(m.others).toBe(0);
    // What the texts left open is recorded as seen: both left out, allowed.
    expect(m.allowed.get(aboutRemoved.optional!)).toEqual({ arrived: 0, dropped: 1 });
    expect(m.allowed.get(heldFirst.optional!)).toEqual({ arrived: 0, dropped: 1 });
  });

  it("a push run with an event in flight across a pause yields no violation", () => {
    const m = model("NONE", true);
    m.add(0);
    const t = fire(m, 0);
    m.setStatus("paused");
    // Raised while enabled, pushed before the pause took effect, landed after it.
    deliver(m, t, { status: "paused" });
    m.ack([jtiOf(t)]);
    expect(finish(m)).toEqual([]);
    expect(
      m.allowed.get(
        "pushed in flight: raised or released while enabled, landed after the stream was paused or disabled",
      ),
    ).toEqual({ arrived: 1, dropped: 0 });
  });

  it("an empty run yields no violation and exercises nothing", () => {
    const m = model();
    expect(finish(m)).toEqual([]);
    expect(m.exercised.size).toBe(0);
    expect(m.allowed.size).toBe(0);
  });
});

describe("DeliveryModel: an enabled stream and a subject in it (EXACTLY-ONCE)", () => {
  it("the event is owed under EXACTLY-ONCE and its arrival satisfies it", () => {
    const m = model();
    m.add(0);
    const t = fire(m, 0);
    expect(t.status).toBe("enabled");
    expect(t.membership).toBe("in");
    expect(t.required).toBe(ONCE);
    expect(t.held).toBe(false);
    expect(t.never.size).toBe(0);
    deliver(m, t);
    expect(t.arrivedWhile).toBe("enabled");
    expect(finish(m)).toEqual([]);
    expect(m.exercised.has(ONCE)).toBe(true);
  });

  it("an event that never arrives is an EXACTLY-ONCE violation, citing the drain's last answer", () => {
    const m = model();
    m.add(1);
    const t = fire(m, 1);
    const res = fakeRes(42);
    const vs = finish(m, res);
    expect(ids(vs)).toEqual([ONCE]);
    expect(vs[0]!.message).toMatch(/enabled stream .* never arrived/);
    expect(vs[0]!.actual).toContain(`event #1 (marker ${t.marker}) about subject s1 (in the stream)`);
    expect(vs[0]!.actual).toContain("triggered while the stream was enabled");
    expect(vs[0]!.res).toBe(res);
  });

  it("each lost event is its own violation; the delivered ones are not", () => {
    const m = model();
    m.add(0);
    m.add(1);
    const a = fire(m, 0);
    fire(m, 1);
    const c = fire(m, 0);
    deliver(m, a);
    deliver(m, c);
    const vs = finish(m);
    expect(ids(vs)).toEqual([ONCE]);
    expect(vs[0]!.actual).toContain("event #2");
  });

  it("default_subjects ALL: a subject never added is in the stream, so its event is owed", () => {
    const m = model("ALL");
    const t = fire(m, 2);
    expect(t.required).toBe(ONCE);
    expect(ids(finish(m))).toEqual([ONCE]);

    const ok = model("ALL");
    deliver(ok, fire(ok, 2));
    expect(finish(ok)).toEqual([]);
  });

  it("the barrier subject is always in the stream", () => {
    const m = model();
    const b = m.trigger(BARRIER, "idc-b-fixed");
    expect(b.membership).toBe("in");
    expect(b.required).toBe(ONCE);
    const vs = finish(m);
    expect(ids(vs)).toEqual([ONCE]);
    expect(vs[0]!.actual).toContain("about the barrier subject");
  });

  it("a SET handed out while a status change is under way (push) is no violation", () => {
    const m = model("NONE", true);
    m.add(0);
    const t = fire(m, 0);
    deliver(m, t, { status: "changing" });
    expect(t.arrivedWhile).toBe("changing");
    expect(finish(m)).toEqual([]);
  });
});

describe("DeliveryModel: subjects never added (SUBJECTS)", () => {
  it("default_subjects NONE: an event about a subject never added must not arrive", () => {
    const m = model("NONE");
    const t = fire(m, 1);
    expect(t.membership).toBe("never");
    expect([...t.never]).toEqual([SUBJECTS]);
    expect(t.required).toBeUndefined();
    const res = fakeRes(7);
    deliver(m, t, { res });
    const vs = finish(m);
    expect(ids(vs)).toEqual([SUBJECTS]);
    expect(vs[0]!.message).toContain("never added");
    expect(vs[0]!.actual).toContain("subject s1 (never added)");
    expect(vs[0]!.actual).toContain(jtiOf(t));
    expect(vs[0]!.res).toBe(res);
  });

  it("default_subjects NONE: not delivering it is right, and the rule counts as exercised", () => {
    const m = model("NONE");
    fire(m, 1);
    expect(finish(m)).toEqual([]);
    expect(m.exercised.has(SUBJECTS)).toBe(true);
    expect(m.exercised.has(ONCE)).toBe(false);
  });

  it("default_subjects absent: arriving or not is the Transmitter's choice, recorded both ways", () => {
    const arrived = model("absent");
    const t = fire(arrived, 1);
    expect(t.never.size).toBe(0);
    expect(t.required).toBeUndefined();
    expect(t.optional).toMatch(/never added.*no default_subjects/);
    deliver(arrived, t);
    expect(finish(arrived)).toEqual([]);
    expect(arrived.allowed.get(t.optional!)).toEqual({ arrived: 1, dropped: 0 });
    expect(arrived.exercised.has(SUBJECTS)).toBe(false);

    const dropped = model("absent");
    const u = fire(dropped, 1);
    expect(finish(dropped)).toEqual([]);
    expect(dropped.allowed.get(u.optional!)).toEqual({ arrived: 0, dropped: 1 });
  });

  it("triggered before its subject was added: handed out before the add breaks SUBJECTS", () => {
    const m = model("NONE");
    const t = fire(m, 0);
    deliver(m, t);
    m.add(0);
    expect(ids(finish(m))).toEqual([SUBJECTS]);
  });

  it("triggered before its subject was added: handed out after the add is allowed, and recorded", () => {
    const m = model("NONE");
    const t = fire(m, 0);
    m.add(0);
    expect(t.never.size).toBe(0);
    expect(t.required).toBeUndefined();
    expect(t.optional).toContain("before its subject was added");
    deliver(m, t);
    expect(finish(m)).toEqual([]);
    expect(m.allowed.get(t.optional!)).toEqual({ arrived: 1, dropped: 0 });

    const notSent = model("NONE");
    const u = fire(notSent, 0);
    notSent.add(0);
    expect(finish(notSent)).toEqual([]);
    expect(notSent.allowed.get(u.optional!)).toEqual({ arrived: 0, dropped: 1 });
  });

  it("adding the subject does not excuse an event raised while disabled", () => {
    const m = model("NONE");
    m.setStatus("disabled");
    const t = fire(m, 0);
    expect([...t.never].sort()).toEqual([DISABLED, SUBJECTS].sort());
    m.setStatus("enabled");
    m.add(0);
    expect([...t.never]).toEqual([DISABLED]);
    deliver(m, t);
    expect(ids(finish(m))).toEqual([DISABLED]);
  });
});

describe("DeliveryModel: paused, then enabled (PAUSED)", () => {
  it("an event raised while paused is held, and owed once enabled; arriving then is right", () => {
    const m = model();
    m.add(0);
    m.setStatus("paused");
    const t = fire(m, 0);
    expect(t.status).toBe("paused");
    expect(t.held).toBe(true);
    expect(t.required).toBe(PAUSED);
    m.readWhileStopped(); // a poll while paused hands out nothing
    m.setStatus("enabled");
    expect(t.held).toBe(false);
    expect(t.required).toBe(PAUSED);
    deliver(m, t);
    expect(t.arrivedWhile).toBe("enabled");
    expect(finish(m)).toEqual([]);
    expect(m.exercised.has(PAUSED)).toBe(true);
    expect(m.exercised.has(DISABLED)).toBe(true);
  });

  it("a held event that never arrives after enabling is a PAUSED violation (not EXACTLY-ONCE)", () => {
    const m = model();
    m.add(0);
    m.setStatus("paused");
    fire(m, 0);
    m.setStatus("enabled");
    const vs = m.finish();
    expect(ids(vs)).toEqual([PAUSED]);
    expect(vs[0]!.message).toContain("held while paused never arrived");
    expect(vs[0]!.actual).toContain("triggered while the stream was paused");
  });

  it("an event still queued when the stream is paused becomes held, and is owed under PAUSED", () => {
    const m = model();
    m.add(0);
    const t = fire(m, 0);
    expect(t.required).toBe(ONCE);
    m.setStatus("paused");
    expect(t.held).toBe(true);
    expect(t.required).toBe(PAUSED);
    expect(ids(finish(m))).toEqual([PAUSED]);
  });

  it("an event already delivered before the pause is not held again", () => {
    const m = model();
    m.add(0);
    const t = fire(m, 0);
    deliver(m, t);
    m.setStatus("paused");
    expect(t.held).toBe(false);
    expect(t.required).toBe(ONCE);
    expect(finish(m)).toEqual([]);
  });

  it("poll: a held event handed out while still paused breaks DISABLED (once per event)", () => {
    const m = model("NONE", false);
    m.add(0);
    m.setStatus("paused");
    const t = fire(m, 0);
    const res = fakeRes(3);
    deliver(m, t, { res });
    deliver(m, t); // handed out again (not acknowledged) while still paused: no second finding
    const vs = finish(m);
    expect(ids(vs)).toEqual([DISABLED]);
    expect(vs[0]!.message).toBe("a SET was handed out while the stream was paused");
    expect(vs[0]!.res).toBe(res);
  });

  it("poll: a SET queued before the pause and handed out during it breaks DISABLED", () => {
    const m = model("NONE", false);
    m.add(0);
    const t = fire(m, 0);
    m.setStatus("paused");
    deliver(m, t);
    expect(ids(finish(m))).toEqual([DISABLED]);
  });

  it("poll: a SET handed out while enabled and handed out again (unacknowledged) while paused breaks DISABLED", () => {
    const m = model("NONE", false);
    m.add(0);
    const t = fire(m, 0);
    deliver(m, t);
    m.setStatus("paused");
    deliver(m, t);
    expect(ids(finish(m))).toEqual([DISABLED]);
  });

  it("push: an event raised while paused and pushed while still paused breaks DISABLED", () => {
    const m = model("NONE", true);
    m.add(0);
    m.setStatus("paused");
    const t = fire(m, 0);
    deliver(m, t);
    expect(ids(finish(m))).toEqual([DISABLED]);
  });

  it("successive held events about one subject: only the last is owed (SSF §8.1.2.1)", () => {
    const m = model();
    m.add(0);
    m.setStatus("paused");
    const first = fire(m, 0);
    const last = fire(m, 0);
    m.setStatus("enabled");
    expect(first.required).toBeUndefined();
    expect(first.optional).toContain("later held event about the same subject");
    expect(last.required).toBe(PAUSED);
    deliver(m, last);
    expect(finish(m)).toEqual([]);
    expect(m.allowed.get(first.optional!)).toEqual({ arrived: 0, dropped: 1 });
  });

  it("successive held events about one subject: sending them all is allowed too, and recorded", () => {
    const m = model();
    m.add(0);
    m.setStatus("paused");
    const first = fire(m, 0);
    const last = fire(m, 0);
    m.setStatus("enabled");
    deliver(m, first);
    deliver(m, last);
    expect(finish(m)).toEqual([]);
    expect(m.allowed.get(first.optional!)).toEqual({ arrived: 1, dropped: 0 });
  });

  it("successive held events about one subject: the last one lost is a PAUSED violation", () => {
    const m = model();
    m.add(0);
    m.setStatus("paused");
    const first = fire(m, 0);
    fire(m, 0);
    m.setStatus("enabled");
    deliver(m, first);
    const vs = finish(m);
    expect(ids(vs)).toEqual([PAUSED]);
    expect(vs[0]!.actual).toContain("event #2");
  });

  it("held events about different subjects are each owed", () => {
    const m = model();
    m.add(0);
    m.add(1);
    m.setStatus("paused");
    const a = fire(m, 0);
    const b = fire(m, 1);
    m.setStatus("enabled");
    expect(a.required).toBe(PAUSED);
    expect(b.required).toBe(PAUSED);
    deliver(m, b);
    const vs = finish(m);
    expect(ids(vs)).toEqual([PAUSED]);
    expect(vs[0]!.actual).toContain("event #1");
  });
});

describe("DeliveryModel: disabled (DISABLED)", () => {
  it("an event raised while disabled is never owed: not delivering it is right", () => {
    const m = model();
    m.add(0);
    m.setStatus("disabled");
    const t = fire(m, 0);
    expect(t.status).toBe("disabled");
    expect(t.held).toBe(false);
    expect(t.required).toBeUndefined();
    expect([...t.never]).toEqual([DISABLED]);
    m.setStatus("enabled");
    expect(t.required).toBeUndefined();
    expect(m.finish()).toEqual([]);
    expect(m.exercised.has(DISABLED)).toBe(true);
  });

  it("an event raised while disabled and delivered after re-enabling breaks DISABLED", () => {
    const m = model();
    m.add(0);
    m.setStatus("disabled");
    const t = fire(m, 0);
    m.setStatus("enabled");
    deliver(m, t);
    const vs = finish(m);
    expect(ids(vs)).toEqual([DISABLED]);
    expect(vs[0]!.message).toBe("an event raised while the stream was disabled was delivered");
    expect(vs[0]!.actual).toContain("handed out as SET");
    expect(vs[0]!.actual).toContain("while the stream was enabled");
  });

  it("disabled, then paused, then enabled: the disabled-time event is still not owed nor allowed", () => {
    const m = model();
    m.add(0);
    m.setStatus("disabled");
    const t = fire(m, 0);
    m.setStatus("paused");
    m.setStatus("enabled");
    expect(t.required).toBeUndefined();
    deliver(m, t);
    expect(ids(finish(m))).toEqual([DISABLED]);
  });

  it("a SET handed out while disabled breaks DISABLED (poll)", () => {
    const m = model("NONE", false);
    m.add(0);
    const t = fire(m, 0);
    m.setStatus("disabled");
    deliver(m, t);
    const vs = finish(m);
    expect(ids(vs)).toEqual([DISABLED]);
    expect(vs[0]!.message).toBe("a SET was handed out while the stream was disabled");
  });

  it("an event raised and handed out while disabled is judged under DISABLED only", () => {
    const m = model("NONE", true);
    m.add(0);
    m.setStatus("disabled");
    const t = fire(m, 0);
    deliver(m, t);
    const vs = finish(m);
    expect(vs.length).toBeGreaterThan(0);
    expect(new Set(ids(vs))).toEqual(new Set([DISABLED]));
    expect(vs.map((v) => v.message)).toContain("a SET was handed out while the stream was disabled");
  });

  it("an event queued when the stream is disabled is no longer owed: both ways allowed, recorded", () => {
    const lost = model();
    lost.add(0);
    const t = fire(lost, 0);
    lost.setStatus("disabled");
    expect(t.required).toBeUndefined();
    expect(t.optional).toBe("in flight when the stream was disabled");
    expect(finish(lost)).toEqual([]);
    expect(lost.allowed.get(t.optional!)).toEqual({ arrived: 0, dropped: 1 });

    const sent = model();
    sent.add(0);
    const u = fire(sent, 0);
    sent.setStatus("disabled");
    sent.setStatus("enabled");
    deliver(sent, u);
    expect(finish(sent)).toEqual([]);
    expect(sent.allowed.get(u.optional!)).toEqual({ arrived: 1, dropped: 0 });
  });

  it("held while paused, then disabled: no longer owed, both ways allowed, recorded", () => {
    const lost = model();
    lost.add(0);
    lost.setStatus("paused");
    const t = fire(lost, 0);
    lost.setStatus("disabled");
    expect(t.required).toBeUndefined();
    expect(t.optional).toBe("held while paused, then the stream was disabled");
    expect(finish(lost)).toEqual([]);
    expect(lost.allowed.get(t.optional!)).toEqual({ arrived: 0, dropped: 1 });

    const sent = model();
    sent.add(0);
    sent.setStatus("paused");
    const u = fire(sent, 0);
    sent.setStatus("disabled");
    sent.setStatus("enabled");
    deliver(sent, u);
    expect(finish(sent)).toEqual([]);
    expect(sent.allowed.get(u.optional!)).toEqual({ arrived: 1, dropped: 0 });
  });

  it("push: an event raised while enabled landing after the disable is in flight, allowed", () => {
    const m = model("NONE", true);
    m.add(0);
    const t = fire(m, 0);
    m.setStatus("disabled");
    deliver(m, t);
    expect(finish(m)).toEqual([]);

    // The same on a poll stream is a transmission while disabled.
    const p = model("NONE", false);
    p.add(0);
    const u = fire(p, 0);
    p.setStatus("disabled");
    deliver(p, u);
    expect(ids(finish(p))).toEqual([DISABLED]);
  });

  it("a read while paused or disabled exercises DISABLED", () => {
    const m = model();
    m.setStatus("paused");
    m.readWhileStopped();
    expect(finish(m)).toEqual([]);
    expect([...m.exercised]).toEqual([DISABLED]);
  });
});

describe("DeliveryModel: acknowledgement and duplicates (EXACTLY-ONCE)", () => {
  it("a SET acknowledged and handed out again is a duplicate", () => {
    const m = model();
    m.add(0);
    const t = fire(m, 0);
    const jti = deliver(m, t);
    m.ack([jti]);
    const res = fakeRes(9);
    deliver(m, t, { res });
    const vs = finish(m);
    expect(ids(vs)).toEqual([ONCE]);
    expect(vs[0]!.message).toContain("handed out again after it was acknowledged");
    expect(vs[0]!.actual).toContain(jti);
    expect(vs[0]!.res).toBe(res);
    expect(t.jtis).toEqual([jti]);
  });

  it("a SET handed out again before it is acknowledged is a redelivery, not a duplicate", () => {
    const m = model();
    m.add(0);
    const t = fire(m, 0);
    deliver(m, t);
    deliver(m, t);
    deliver(m, t);
    m.ack([jtiOf(t)]);
    expect(finish(m)).toEqual([]);
    expect(t.jtis).toEqual([jtiOf(t)]);
  });

  it("push: a SET answered 2xx and pushed again is allowed (RFC 8935 §2: MAY), and noted", () => {
    const m = model("NONE", true);
    m.add(0);
    const t = fire(m, 0);
    m.ack([deliver(m, t)]);
    deliver(m, t);
    expect(finish(m)).toEqual([]);
    expect(
      m.allowed.get(
        "the same SET pushed again after a 202 answer (RFC 8935 §2: MAY, SHOULD NOT outside a recoverable error)",
      ),
    ).toEqual({ arrived: 1, dropped: 0 });
  });

  it("push: one event pushed as a second SET (another jti) after a 202 is still a duplicate", () => {
    const m = model("NONE", true);
    m.add(0);
    const t = fire(m, 0);
    m.ack([deliver(m, t)]);
    deliver(m, t, { jti: "another" });
    expect(ids(finish(m))).toEqual([ONCE]);
  });

  it("one event handed out as two different SETs is a duplicate", () => {
    const m = model();
    m.add(0);
    const t = fire(m, 0);
    deliver(m, t, { jti: "first" });
    deliver(m, t, { jti: "second" });
    const vs = finish(m);
    expect(ids(vs)).toEqual([ONCE]);
    expect(vs[0]!.message).toContain("one event was handed out as two SETs");
    expect(t.jtis).toEqual(["first", "second"]);
  });

  it("an acknowledged verification SET or other SET handed out again is a duplicate too", () => {
    const m = model();
    m.verify();
    m.arrived({ jti: "v", verification: { state: "s" }, status: "enabled" });
    m.arrived({ jti: "o", status: "enabled" });
    m.ack(["v", "o"]);
    expect(finish(m)).toEqual([]);
    m.arrived({ jti: "v", verification: { state: "s" }, status: "enabled" });
    m.arrived({ jti: "o", status: "enabled" });
    expect(ids(m.violations)).toEqual([ONCE, ONCE]);
    // Counted once each.
    expect(m.verifications).toEqual({ requested: 1, arrived: 1 });
    expect(m.others).toBe(1);
  });

  it("an acknowledgement does not make an event owed or lost", () => {
    const m = model();
    m.add(0);
    const t = fire(m, 0);
    m.ack(["unrelated"]);
    expect(t.jtis).toEqual([]);
    expect(ids(finish(m))).toEqual([ONCE]);
  });
});

describe("DeliveryModel: removed subjects (left to the Transmitter, SSF §9.3)", () => {
  it("an event about a removed subject may arrive: allowed, recorded as delivered", () => {
    const m = model("NONE");
    m.add(0);
    m.remove(0);
    expect(m.members[0]).toBe("removed");
    const t = fire(m, 0);
    expect(t.membership).toBe("removed");
    expect(t.required).toBeUndefined();
    expect(t.never.size).toBe(0);
    expect(t.optional).toContain("removed from the stream");
    deliver(m, t);
    expect(finish(m)).toEqual([]);
    expect(m.allowed.get(t.optional!)).toEqual({ arrived: 1, dropped: 0 });
  });

  it("an event about a removed subject may not arrive: allowed, recorded as not delivered", () => {
    const m = model("NONE");
    m.add(0);
    m.remove(0);
    const t = fire(m, 0);
    expect(finish(m)).toEqual([]);
    expect(m.allowed.get(t.optional!)).toEqual({ arrived: 0, dropped: 1 });
  });

  it("default_subjects ALL: removing a subject never added takes it out of the stream", () => {
    const m = model("ALL");
    m.remove(1);
    expect(m.members[1]).toBe("removed");
    const t = fire(m, 1);
    expect(t.required).toBeUndefined();
    expect(finish(m)).toEqual([]);
  });

  it("an event owed when its subject is removed is no longer owed (in flight), both ways allowed", () => {
    const m = model();
    m.add(0);
    const t = fire(m, 0);
    expect(t.required).toBe(ONCE);
    m.remove(0);
    expect(t.required).toBeUndefined();
    expect(t.optional).toBe("in flight when its subject was removed");
    expect(finish(m)).toEqual([]);
    expect(m.allowed.get(t.optional!)).toEqual({ arrived: 0, dropped: 1 });

    const sent = model();
    sent.add(0);
    const u = fire(sent, 0);
    sent.remove(0);
    deliver(sent, u);
    expect(finish(sent)).toEqual([]);
    expect(sent.allowed.get(u.optional!)).toEqual({ arrived: 1, dropped: 0 });
  });

  it("removing a subject leaves events about other subjects owed", () => {
    const m = model();
    m.add(0);
    m.add(1);
    fire(m, 0);
    const other = fire(m, 1);
    m.remove(0);
    expect(other.required).toBe(ONCE);
    const vs = finish(m);
    expect(ids(vs)).toEqual([ONCE]);
    expect(vs[0]!.actual).toContain("subject s1");
  });

  it("re-adding a removed subject makes new events about it owed again", () => {
    const m = model();
    m.add(0);
    m.remove(0);
    m.add(0);
    const t = fire(m, 0);
    expect(t.membership).toBe("in");
    expect(t.required).toBe(ONCE);
    expect(ids(finish(m))).toEqual([ONCE]);
  });

  it("an event about a removed subject raised while disabled still must not arrive", () => {
    const m = model();
    m.add(0);
    m.remove(0);
    m.setStatus("disabled");
    const t = fire(m, 0);
    m.setStatus("enabled");
    deliver(m, t);
    const vs = finish(m);
    expect(ids(vs)).toEqual([DISABLED]);
    // Not counted among the allowed behaviours: it broke a rule.
    expect(m.allowed.has(t.optional!)).toBe(false);
  });
});

describe("DeliveryModel: matching, bounds and wording", () => {
  it("setStatus to the current status changes nothing", () => {
    const m = model();
    m.add(0);
    m.setStatus("paused");
    const t = fire(m, 0);
    m.setStatus("paused");
    expect(t.held).toBe(true);
    expect(m.status).toBe("paused");
  });

  it("inOrder matches an unmarked SET to the first event about the subject not yet arrived", () => {
    const m = model();
    m.add(0);
    m.add(1);
    const a = fire(m, 0);
    fire(m, 1);
    const c = fire(m, 0);
    expect(m.inOrder(0, "x")).toBe(a);
    deliver(m, a, { jti: "x" });
    expect(m.inOrder(0, "x")).toBe(a);
    expect(m.inOrder(0, "y")).toBe(c);
    deliver(m, c, { jti: "y" });
    // Nothing left about s0: a further SET goes to the last, where it shows as a duplicate.
    expect(m.inOrder(0, "z")).toBe(c);
    expect(m.inOrder(2, "z")).toBeUndefined();
  });

  it("byMarker finds the trigger by its marker", () => {
    const m = model();
    const a = fire(m, 0);
    const b = fire(m, 1);
    expect(m.byMarker(a.marker)).toBe(a);
    expect(m.byMarker(b.marker)).toBe(b);
    expect(m.byMarker("idc-unknown")).toBeUndefined();
  });

  it("violations are bounded: past 100 they are only counted", () => {
    const m = model();
    m.add(0);
    for (let i = 0; i < 105; i++) fire(m, 0);
    const vs = finish(m);
    expect(vs).toHaveLength(100);
    expect(m.dropped).toBe(5);
    expect(new Set(ids(vs))).toEqual(new Set([ONCE]));
  });

  it("triggerText names the event, the subject's membership and the status", () => {
    const m = model("absent");
    m.add(0);
    const a = fire(m, 0);
    const b = fire(m, 1);
    m.remove(0);
    m.setStatus("paused");
    const c = fire(m, 0);
    const d = m.trigger(BARRIER, "idc-b");
    expect(triggerText(a)).toBe(
      `event #1 (marker ${a.marker}) about subject s0 (in the stream), triggered while the stream was enabled`,
    );
    expect(triggerText(b)).toContain("subject s1 (never added)");
    expect(triggerText(c)).toBe(
      `event #3 (marker ${c.marker}) about subject s0 (removed from the stream), triggered while the stream was paused`,
    );
    expect(triggerText(d)).toBe(
      "event #4 (marker idc-b) about the barrier subject, triggered while the stream was paused",
    );
  });

  it("verification SETs and other SETs are counted, never matched to an event", () => {
    const m = model();
    m.verify();
    m.verify();
    m.arrived({ jti: "v1", verification: { state: 1 }, status: "enabled" });
    m.arrived({ jti: "v1", verification: { state: 1 }, status: "enabled" });
    m.arrived({ jti: "o1", status: "paused" });
    expect(m.verifications).toEqual({ requested: 2, arrived: 1 });
    expect(m.others).toBe(1);
    expect(m.seen.get("v1")).toBe("verification");
    expect(m.seen.get("o1")).toBe("other");
    // A stream-updated or stray SET while paused is not a triggered event: no DISABLED finding.
    expect(finish(m)).toEqual([]);
  });
});

describe("DeliveryModel: a push in flight across a second pause", () => {
  // An event raised while paused is held and released when the stream is enabled; pushed then,
  // it can be in flight when the stream is paused again right after, as an event raised while
  // enabled can (SSF §8.1.2.1 forbids transmitting while paused; the push started while enabled).
  it("push: a held event released on enabling and landing after the next pause is in flight, allowed", () => {
    const m = model("NONE", true);
    m.add(0);
    m.setStatus("paused");
    const t = fire(m, 0);
    m.setStatus("enabled");
    m.setStatus("paused");
    deliver(m, t, { status: "paused" });
    expect(finish(m)).toEqual([]);
  });
});

describe("RunTally: what the lifecycle runs of one check saw", () => {
  it("sequenceText drops fast-check's replay comment", () => {
    expect(sequenceText('add(s0),trigger(s0) /*replayPath="AAB"*/')).toBe("add(s0),trigger(s0)");
    expect(sequenceText({ toString: () => "status(paused),read" })).toBe("status(paused),read");
  });

  it("keeps each run's violations, the first sequence that broke each rule, and sums the rest", () => {
    const tally = new RunTally();

    const r1 = model("NONE");
    r1.add(0);
    fire(r1, 0); // lost: EXACTLY-ONCE
    r1.add(1);
    r1.remove(1);
    fire(r1, 1); // about a removed subject, not delivered: allowed
    r1.verify();
    const v1 = tally.add('add(s0),trigger(s0) /*replayPath="x"*/', r1, finish(r1));

    const r2 = model("NONE");
    const n = fire(r2, 2); // never added, delivered: SUBJECTS
    deliver(r2, n);
    r2.add(1);
    const inFlight = fire(r2, 1);
    r2.remove(1); // removed while in flight: no longer owed, allowed either way
    r2.add(0);
    r2.remove(0);
    const delivered = fire(r2, 0);
    deliver(r2, delivered);
    r2.arrived({ jti: "stray", status: "enabled" });
    const v2 = tally.add("trigger(s2)", r2, finish(r2));

    expect(ids(v1)).toEqual([ONCE]);
    expect(ids(v2)).toEqual([SUBJECTS]);
    expect(inFlight.optional).toBe("in flight when its subject was removed");
    expect(tally.runs).toBe(2);
    expect([...tally.bySequence.keys()]).toEqual(["add(s0),trigger(s0)", "trigger(s2)"]);
    expect(tally.bySequence.get("trigger(s2)")).toBe(v2);
    expect(tally.first.get(ONCE)?.seq).toBe("add(s0),trigger(s0)");
    expect(tally.first.get(SUBJECTS)?.seq).toBe("trigger(s2)");
    expect(tally.first.has(PAUSED)).toBe(false);
    expect([...tally.exercised].sort()).toEqual([ONCE, SUBJECTS].sort());
    const removedWhy = delivered.optional!;
    expect(tally.allowed.get(removedWhy)).toEqual({ arrived: 1, dropped: 1 });
    expect(tally.allowed.get("in flight when its subject was removed")).toEqual({ arrived: 0, dropped: 1 });
    expect(tally.verifications).toEqual({ requested: 1, arrived: 0 });
    expect(tally.others).toBe(1);
  });
});

describe("markers: telling one triggered event's SET apart", () => {
  const CAEP = "https://schemas.openid.net/secevent/caep/event-type/";
  const set = (events: Record<string, unknown>): CollectedSet => ({
    token: "x.y.z",
    payload: { events },
    via: "poll",
    streamId: "st",
    at: 0,
  });

  it("markedEvent picks a type that can carry a marker, else session-revoked unmarked", () => {
    const tcc = markedEvent([`${CAEP}session-revoked`, `${CAEP}token-claims-change`]);
    expect(tcc.uri).toBe(`${CAEP}token-claims-change`);
    expect(tcc.marked).toBe(true);
    expect(tcc.claims("idc-1-a")).toEqual({ claims: { idc_marker: "idc-1-a" } });

    const session = markedEvent([`${CAEP}session-established`]);
    expect(session.marked).toBe(true);
    expect(session.claims("idc-2-b")).toEqual({ ext_id: "idc-2-b" });

    const revoked = markedEvent([`${CAEP}credential-change`, `${CAEP}session-revoked`]);
    expect(revoked.uri).toBe(`${CAEP}session-revoked`);
    expect(revoked.marked).toBe(false);
    expect(revoked.claims("idc-3-c")).toEqual({});

    expect(markedEvent([`${CAEP}credential-change`]).uri).toBe(`${CAEP}credential-change`);
    expect(markedEvent([]).uri).toBe(`${CAEP}session-revoked`);
  });

  it("markerOf reads the marker back, and only a marker the harness could have set", () => {
    expect(markerOf(set({ [`${CAEP}token-claims-change`]: { claims: { idc_marker: "idc-4-d" } } }))).toBe(
      "idc-4-d",
    );
    expect(markerOf(set({ [`${CAEP}session-presented`]: { ext_id: "idc-5-e" } }))).toBe("idc-5-e");
    expect(markerOf(set({ [`${CAEP}session-presented`]: { ext_id: "abc" } }))).toBeUndefined();
    expect(
      markerOf(set({ [`${CAEP}session-presented`]: { ext_id: `idc-${"x".repeat(300)}` } })),
    ).toBeUndefined();
    expect(markerOf(set({ [`${CAEP}session-revoked`]: {} }))).toBeUndefined();
    expect(markerOf({ token: "t", via: "push", streamId: "st", at: 0 })).toBeUndefined();
  });

  it("freshMarker is idc-<n>-<hex>, distinct each time", () => {
    const a = freshMarker(7);
    const b = freshMarker(7);
    expect(a).toMatch(/^idc-7-[0-9a-f]{12}$/);
    expect(b).toMatch(/^idc-7-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
  });
});
