import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { runCheck, type CheckEnvironment } from "../../src/engine/check-runner.js";
import { defineCheck, type CheckResult } from "../../src/engine/check.js";
import { defineObserver, observerResults } from "../../src/engine/observer.js";
import { DEFAULT_CLIENT_OPTIONS } from "../../src/http/client.js";

// A target whose /ok answers no-store, /cached forgets it, /reset drops the connection unanswered,
// and /leak puts a secret in an error.
let server: Server;
let base = "";
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/ok") {
      res.writeHead(200, { "cache-control": "no-store", "content-type": "application/json" });
      res.end('{"ok":true}');
    } else if (req.url === "/reset") {
      req.socket.destroy();
    } else if (req.url === "/cached") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":"cached"}');
    } else {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end("boom, token very-secret-value");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const noStore = defineObserver({
  id: "unit.observe-no-store",
  title: "every successful response carries no-store",
  requirement: "U-NO-STORE",
  applies: (ex) => ex.status >= 200 && ex.status < 300 && !ex.tags.includes("attack"),
  judge: (ex) =>
    ex.header("cache-control") === "no-store"
      ? undefined
      : { message: `${ex.url.pathname} is cacheable`, actual: ex.header("cache-control") ?? "absent" },
});

function env(observers = [noStore]): CheckEnvironment {
  return {
    suite: "unit",
    section: "§1",
    profile: {},
    features: {},
    probes: {},
    client: { ...DEFAULT_CLIENT_OPTIONS, allowInsecureHttp: true },
    secrets: [{ value: "very-secret-value", name: "UNIT_SECRET" }],
    seed: 1,
    runId: "r",
    provided: {},
    observers,
  };
}

function fetching(id: string, paths: { path: string; tags?: string[] }[]) {
  return defineCheck({
    id,
    title: "t",
    requirements: ["U-ANY"],
    async run(c) {
      for (const p of paths)
        await c.http.get(`${base}${p.path}`, { label: p.path, ...(p.tags ? { tags: p.tags } : {}) });
      c.check("U-ANY", true);
    },
  });
}

describe("observers (honesty rule 7: every response judged)", () => {
  it("sees every response of a check, counts those it applies to and keeps the first violation's exchange", async () => {
    const r = await runCheck(
      fetching("unit.obs", [
        { path: "/ok" },
        { path: "/cached" },
        { path: "/cached", tags: ["attack"] },
        { path: "/ok" },
        { path: "/cached" },
      ]),
      env(),
    );
    expect(r.observations).toEqual([
      {
        observer: "unit.observe-no-store",
        requirement: "U-NO-STORE",
        seen: 4,
        violations: 2,
        first: { exchange: 1, kind: "missing", message: "/cached is cacheable", actual: "absent" },
      },
    ]);
    // The cited exchange keeps its body although no finding of the check names it.
    expect(r.exchanges[1]?.response?.status).toBe(200);
  });

  it("decides the rule over the run: the earliest violation is the evidence; met needs the whole run; none seen is a skip", async () => {
    const clean = await runCheck(fetching("unit.clean", [{ path: "/ok" }]), env());
    const bad = await runCheck(fetching("unit.bad", [{ path: "/ok" }, { path: "/cached" }]), env());
    const met = observerResults("unit", [noStore], [clean], { complete: true });
    expect(met[0]?.requirements).toEqual({ "U-NO-STORE": "met" });
    expect(met[0]?.notes).toEqual(["judged on 1 exchange(s) of 1 check(s)"]);

    const violated = observerResults("unit", [noStore], [clean, bad], { complete: true })[0]!;
    expect(violated.requirements).toEqual({ "U-NO-STORE": "violated" });
    expect(violated.findings[0]?.message).toContain("in check unit.bad; 1 of 3 exchanges");
    expect(violated.exchanges).toHaveLength(1);
    expect(violated.exchanges[0]?.request.url).toBe(`${base}/cached`);
    expect(violated.findings[0]?.exchanges).toEqual([0]);

    // A run that did not see every check through cannot say every response met the rule.
    const partial = observerResults("unit", [noStore], [clean], { complete: false })[0]!;
    expect(partial.requirements).toEqual({ "U-NO-STORE": "skipped" });
    expect(partial.findings[0]?.message).toMatch(/^partly observed/);

    const none = observerResults("unit", [noStore], [], { complete: true })[0]!;
    expect(none.requirements).toEqual({ "U-NO-STORE": "skipped" });
    expect(none.findings[0]?.message).toMatch(/^not observed/);
    expect(none.findings[0]?.skipKind).toBe("other");

    // A rule the profile makes inapplicable (push answers of a Receiver that polls) is not offered.
    const pushOnly = {
      ...noStore,
      notApplicable: (p: unknown) => (p === "poll" ? "the target polls" : undefined),
    };
    const na = observerResults("unit", [pushOnly], [], { complete: true, profile: "poll" })[0]!;
    expect(na.requirements).toEqual({ "U-NO-STORE": "skipped" });
    expect(na.findings[0]).toMatchObject({
      message: "not offered: the target polls",
      skipKind: "not-offered",
    });
    const applies = observerResults("unit", [pushOnly], [], { complete: true, profile: "push" })[0]!;
    expect(applies.findings[0]?.skipKind).toBe("other");
  });

  it("redacts what an observer quotes, and a failing observer is a harness fault, not a verdict", async () => {
    const leaky = defineObserver({
      id: "unit.observe-errors",
      title: "no error body",
      requirement: "U-ERR",
      applies: (ex) => ex.status >= 500,
      judge: (ex) => ({ message: `body: ${ex.text}` }),
    });
    const broken = defineObserver({
      id: "unit.observe-broken",
      title: "throws",
      requirement: "U-BROKEN",
      applies: () => true,
      judge: () => {
        throw new Error("observer bug");
      },
    });
    const r = await runCheck(fetching("unit.leak", [{ path: "/boom" }]), env([leaky, broken]));
    expect(JSON.stringify(r)).not.toContain("very-secret-value");
    const out = observerResults("unit", [leaky, broken], [r], { complete: true });
    expect(out[0]?.requirements).toEqual({ "U-ERR": "violated" });
    expect(out[0]?.findings[0]?.message).toContain("${UNIT_SECRET}");
    expect(out[1]?.requirements).toEqual({ "U-BROKEN": "errored" });
    expect(out[1]?.findings[0]?.message).toContain("observer bug");
  });

  it("ignores results of other suites", () => {
    const other: CheckResult = {
      check: "x",
      suite: "other",
      title: "t",
      section: "s",
      requirements: {},
      findings: [],
      exchanges: [],
      notes: [],
      durationMs: 0,
      observations: [{ observer: noStore.id, requirement: "U-NO-STORE", seen: 3, violations: 0 }],
    };
    expect(observerResults("unit", [noStore], [other], { complete: true })[0]?.requirements).toEqual({
      "U-NO-STORE": "skipped",
    });
  });
});

describe("no vacuous or partial passes (issue 10 item 5)", () => {
  it("each: an empty collection skips with the reason; every item is judged and the first violation is shown", async () => {
    const r = await runCheck(
      defineCheck({
        id: "unit.each",
        title: "t",
        requirements: ["U-EMPTY", "U-ALL", "U-SOME"],
        async run(c) {
          await c.each("U-EMPTY", [], "credentials", () => undefined);
          const judged: number[] = [];
          await c.each("U-ALL", [1, 2, 3], "items", (n) => void judged.push(n));
          expect(judged).toEqual([1, 2, 3]);
          await c.each("U-SOME", ["a", "b", "c", "d"], "pages", (p) =>
            p === "b" || p === "d"
              ? { message: `page ${p} is too long`, expected: "≤ 2", actual: "3" }
              : undefined,
          );
        },
      }),
      env([]),
    );
    expect(r.requirements).toEqual({ "U-EMPTY": "skipped", "U-ALL": "met", "U-SOME": "violated" });
    expect(r.findings.find((f) => f.requirements[0] === "U-EMPTY")?.message).toMatch(
      /^no credentials to judge/,
    );
    const some = r.findings.find((f) => f.requirements[0] === "U-SOME")!;
    expect(some.message).toBe(
      "pages 2 of 4: page b is too long (2 of 4 pages violate it; the first is shown)",
    );
    expect(some.expected).toBe("≤ 2");
  });

  it("each: an item the target drops unanswered (connection reset) is a violation of that item, and the others are still judged", async () => {
    const judged: string[] = [];
    const r = await runCheck(
      defineCheck({
        id: "unit.each-reset",
        title: "t",
        requirements: ["U-PROBES"],
        async run(c) {
          await c.each("U-PROBES", ["/ok", "/reset", "/ok"], "probes", async (path) => {
            const res = await c.http.get(`${base}${path}`, { label: path });
            judged.push(`${path} ${res.status}`);
            return undefined;
          });
        },
      }),
      env([]),
    );
    expect(judged).toEqual(["/ok 200", "/ok 200"]);
    expect(r.requirements).toEqual({ "U-PROBES": "violated" });
    const f = r.findings[0]!;
    expect(f.message).toBe("probes 2 of 3: the target gave no answer");
    expect(f.expected).toBe("an HTTP answer to probes 2");
    expect(f.actual).toMatch(/^no answer: GET http:\/\/127\.0\.0\.1:\d+\/reset: /);
  });

  it("a skip after a partial observation leaves the requirement a skip that says what was seen; a complete one keeps its pass", async () => {
    const r = await runCheck(
      defineCheck({
        id: "unit.partial",
        title: "t",
        requirements: ["U-DONE", "U-HALF", "U-LATER", "U-BROKEN"],
        async run(c) {
          c.check("U-DONE", true);
          c.complete("U-DONE");
          c.check("U-HALF", true);
          c.check("U-BROKEN", false, { expected: "a", actual: "b" });
          c.skip("the second page could not be read", "dependency");
        },
      }),
      env([]),
    );
    expect(r.requirements).toEqual({
      "U-DONE": "met",
      "U-HALF": "skipped",
      "U-LATER": "skipped",
      "U-BROKEN": "violated",
    });
    const half = r.findings.find((f) => f.requirements.includes("U-HALF"))!;
    expect(half.message).toBe(
      "partly observed: met on what was seen before the check stopped, not decided as a whole (the second page could not be read)",
    );
    expect(half.requirements).toEqual(["U-HALF"]);
    expect(half.skipKind).toBe("dependency");
  });
});
