// `npm run bench`: the speed and size goals of the core issue, each printed beside its bound.
// Timings come from repeated rounds on this machine (medians, or the fastest round for the
// client micro-benchmark); nothing here runs in `npm test`.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { request } from "undici";
import { closeAgents, DEFAULT_CLIENT_OPTIONS, RecordingClient } from "../src/http/client.js";
import { Redactor } from "../src/http/redactor.js";
import { renderHtml } from "../src/report/html.js";
import { buildResults, type CatalogEntry } from "../src/report/results.js";
import type { CheckResult } from "../src/engine/check.js";
import { startFixtureTarget } from "../test/fixture/target.js";
import { loadTarget, locateTargets } from "../src/engine/discovery.js";
import { randomBytes } from "node:crypto";
import { runWithPeak, startPaddingProxy } from "./hostile.js";
import { verifyBench } from "./bundle.js";
import { federationRows } from "./federation.js";
import { caepPushRows } from "./caep.js";
import { mutableSuites } from "../test/mutation/stryker-options.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const rows: [string, string, string, boolean][] = [];
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function firstRequest(): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    let started = 0;
    let first = 0;
    const target = await startFixtureTarget({
      faults: [],
      onRequest: () => void (first ||= performance.now()),
    });
    const dir = mkdtempSync(join(tmpdir(), "idc-bench-"));
    const profile = join(dir, "p.yaml");
    writeFileSync(
      profile,
      `name: bench\noptions:\n  allowInsecureHttp: true\nsuites:\n  fixture:\n    baseUrl: \${IDC_DEMO_FIXTURE_URL}\n    token: \${IDC_DEMO_FIXTURE_TOKEN}\n`,
    );
    started = performance.now();
    const child = spawn(
      process.execPath,
      [join(ROOT, "bin", "idconform.js"), "run", profile, "--out", join(dir, "out")],
      {
        env: { ...process.env, ...target.env },
        stdio: "ignore",
      },
    );
    await new Promise((r) => child.on("close", r));
    await target.close();
    samples.push(first - started);
  }
  return median(samples);
}

function syntheticResults(n: number) {
  const catalog: CatalogEntry[] = [];
  const checks: CheckResult[] = [];
  const items = Array.from({ length: 20 }, (_, i) => ({ id: i, name: `user-${i}`, active: true }));
  const body = JSON.stringify({ items });
  // Issue 12 item 6: every exchange the report shows carries JWTs (a DPoP header, one in the body) it decodes.
  const jwt = (claims: object): string =>
    `${Buffer.from('{"alg":"ES256","typ":"dpop+jwt"}').toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${"s".repeat(86)}`;
  const shownBody = JSON.stringify({
    items,
    credential: jwt({ iss: "https://target.example", iat: 1767225600 }),
  });
  for (let i = 0; i < n; i++) {
    const id = `BENCH-REQ-${i}`;
    catalog.push({
      id,
      suite: "bench",
      level: i % 5 === 0 ? "SHOULD" : "MUST",
      text: `requirement number ${i} of the bench catalog`,
      source: "bench §1",
    });
    const violated = i % 10 === 0;
    checks.push({
      check: `bench.c${i}`,
      suite: "bench",
      title: `check ${i}`,
      section: "§1",
      requirements: { [id]: violated ? "violated" : "met" },
      findings: violated
        ? [
            {
              requirements: [id],
              outcome: "violated",
              message: "not met",
              expected: "200",
              actual: "500",
              exchanges: [0, 1],
            },
          ]
        : [],
      exchanges: [0, 1].map((x) => ({
        id: x,
        request: {
          method: "GET",
          url: `https://target.example/Users?startIndex=${i}`,
          headers: {
            accept: "application/json",
            authorization: "Bearer ${TOKEN}",
            ...(violated
              ? { dpop: jwt({ htm: "GET", htu: "https://target.example/Users", jti: `j${i}-${x}` }) }
              : {}),
          },
        },
        response: {
          status: 200,
          headers: { "content-type": "application/json" },
          body: violated ? shownBody : body,
          bodyBytes: (violated ? shownBody : body).length,
        },
        startedAt: new Date().toISOString(),
        durationMs: 3,
        curl: `curl -sS -i "https://target.example/Users?startIndex=${i}" -H "authorization: Bearer \${TOKEN}"`,
      })),
      notes: violated ? [`could not delete Users/${i}: 500`] : [],
      durationMs: 5,
    });
  }
  return buildResults({
    meta: {
      id: "bench",
      harness: { name: "idconform", version: "bench" },
      profile: { name: "bench", file: "bench.yaml", sha256: "0".repeat(64) },
      suites: [{ name: "bench", title: "bench", document: "bench", target: "https://target.example" }],
      seed: 1,
      strict: false,
      grep: [],
      startedAt: new Date().toISOString(),
      durationMs: 1000,
      notCertifiable: [],
      interrupted: false,
    },
    catalog,
    covered: new Set(catalog.map((c) => c.id)),
    checks,
    knownFailures: [],
  });
}

/** Median ratios to a bare undici request: recording only, and recording plus redacting the evidence. */
async function clientOverhead(): Promise<{ recording: number; withEvidence: number; evidenceUs: number }> {
  const payload = JSON.stringify({
    id: "u1",
    userName: "bjensen",
    emails: [{ value: "b@example.com" }],
    pad: "x".repeat(900),
  });
  const server = createServer((_q, s) =>
    s.writeHead(200, { "content-type": "application/json" }).end(payload),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/Users/u1`;
  const N = 300;
  const bare = async (): Promise<number> => {
    const t = performance.now();
    for (let i = 0; i < N; i++) {
      const res = await request(url, { signal: AbortSignal.timeout(10_000) });
      JSON.parse(await res.body.text());
    }
    return performance.now() - t;
  };
  const recorded = async (): Promise<[number, number]> => {
    const t = performance.now();
    const c = new RecordingClient({ ...DEFAULT_CLIENT_OPTIONS, allowInsecureHttp: true });
    for (let i = 0; i < N; i++) void (await c.get(url)).json;
    const sent = performance.now();
    c.evidence(new Redactor([{ value: "some-secret-token", name: "TOKEN" }]));
    return [sent - t, performance.now() - sent];
  };
  for (let i = 0; i < 3; i++) {
    await bare();
    await recorded();
  }
  // Interleaved rounds; the fastest round of each side is the least disturbed by the rest of the machine.
  const bares: number[] = [];
  const recs: number[] = [];
  const evidence: number[] = [];
  for (let round = 0; round < 31; round++) {
    bares.push(await bare());
    const [r, e] = await recorded();
    recs.push(r);
    evidence.push(e);
  }
  const b = Math.min(...bares);
  const r = Math.min(...recs);
  const e = Math.min(...evidence);
  await closeAgents();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  return { recording: r / b, withEvidence: (r + e) / b, evidenceUs: (e * 1000) / N };
}

const fr = await firstRequest();
rows.push(["idconform run: start to first request", `${fr.toFixed(0)} ms`, "< 2000 ms", fr < 2000]);

const results = syntheticResults(5000);
const times: number[] = [];
let size = 0;
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  size = Buffer.byteLength(renderHtml(results));
  times.push(performance.now() - t);
}
rows.push([
  "report.html for 5,000 check results: render time",
  `${median(times).toFixed(0)} ms`,
  "< 2000 ms",
  median(times) < 2000,
]);
rows.push([
  "report.html for 5,000 check results: file size",
  `${(size / 1024 / 1024).toFixed(2)} MB`,
  "< 10 MB",
  size < 10 * 1024 * 1024,
]);

// Issue 12 item 7: verifying the signed evidence bundle of that run (the whole command).
const verified = await verifyBench(results);
rows.push([
  `idconform verify: bundle of 5,000 requirements (${(verified.bundleBytes / 1024 / 1024).toFixed(1)} MB), exit ${verified.code}`,
  `${verified.ms.toFixed(0)} ms`,
  "< 2000 ms",
  verified.ms < 2000 && verified.code === 0,
]);

// Issue 12 item 8: `idconform diff` of two 5,000-requirement runs, the whole command (start-up,
// reading and validating both files, the diff, the output); one in seven requirements regressed.
{
  const dir = mkdtempSync(join(tmpdir(), "idc-bench-"));
  const older = join(dir, "old.json");
  const newer = join(dir, "new.json");
  writeFileSync(older, JSON.stringify(results));
  writeFileSync(
    newer,
    JSON.stringify({
      ...results,
      requirements: results.requirements.map((q, i) => (i % 7 === 1 ? { ...q, verdict: "fail" } : q)),
    }),
  );
  const t: number[] = [];
  let code: number | null = null;
  for (let i = 0; i < 5; i++) {
    const s0 = performance.now();
    const child = spawn(process.execPath, [join(ROOT, "bin", "idconform.js"), "diff", older, newer], {
      stdio: "ignore",
    });
    code = await new Promise<number | null>((r) => child.on("close", r));
    t.push(performance.now() - s0);
  }
  rows.push([
    `idconform diff of two 5,000-requirement results.json (${(Buffer.byteLength(readFileSync(older)) / 1024 / 1024).toFixed(1)} MB each), exit ${code}`,
    `${median(t).toFixed(0)} ms`,
    "< 1000 ms",
    median(t) < 1000 && code === 1,
  ]);
}

const overhead = await clientOverhead();
const pct = (r: number): string => `+${((r - 1) * 100).toFixed(1)} %`;
rows.push([
  "recording client vs bare undici on loopback",
  pct(overhead.recording),
  "< 10 %",
  overhead.recording < 1.1,
]);
// Redaction runs once per exchange when a check ends, off the request path; shown, not bounded.
rows.push(["  … counting evidence redaction as well", pct(overhead.withEvidence), "(info)", true]);
rows.push(["  evidence redaction per exchange", `${overhead.evidenceUs.toFixed(1)} µs`, "(info)", true]);

/** A whole suite against its local reference target, property and model runs at their default counts. */
async function suiteRun(suite: string): Promise<number | undefined> {
  const located = locateTargets().find((t) => t.name === suite);
  if (!located) return undefined;
  const target = await (await loadTarget(suite)).start({ faults: [] });
  try {
    const dir = mkdtempSync(join(tmpdir(), "idc-bench-"));
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [
        join(ROOT, "bin", "idconform.js"),
        "run",
        join(ROOT, "profiles", "demo", `${suite}.yaml`),
        "--out",
        join(dir, "out"),
      ],
      {
        env: { ...process.env, ...target.env },
        stdio: "ignore",
      },
    );
    const code = await new Promise<number | null>((r) => child.on("close", r));
    if (code !== 0) throw new Error(`the ${suite} suite run against its clean target exited ${code}`);
    return performance.now() - started;
  } finally {
    await target.close();
  }
}

for (const [suite, bound] of [
  ["scim", 10_000],
  ["commands", 15_000],
  ["vci", 15_000],
  ["federation", 15_000],
  ["caep-receiver", 10_000],
  ["caep-transmitter", 15_000],
] as const) {
  const ms = await suiteRun(suite);
  if (ms !== undefined)
    rows.push([
      `${suite} suite against its reference target (whole run)`,
      `${(ms / 1000).toFixed(1)} s`,
      `< ${bound / 1000} s`,
      ms < bound,
    ]);
}

// Federation scale (issue 13): the extended list of 10,000 and 100,000 members, walked at the
// default page size, time and the harness's peak RSS (the target runs in a process of its own).
rows.push(...(await federationRows()));

// CAEP receiver (issue 14): the mock Transmitter's push rate of signed SETs.
rows.push(...(await caepPushRows()));

// Hostile targets (hostile targets issue, item 2): the whole run's peak memory, idconform and
// its test workers together, against answers at the size cap. Goal: under 400 MB each.
const MB = 1024 * 1024;
const CAP = DEFAULT_CLIENT_OPTIONS.maxResponseBytes;
for (const padding of ["string", "keys"] as const) {
  const target = await (await loadTarget("scim")).start({ faults: [] });
  const base = new URL(target.env.IDC_DEMO_SCIM_URL ?? target.url);
  const proxy = await startPaddingProxy(base.origin, CAP, padding);
  try {
    const dir = mkdtempSync(join(tmpdir(), "idc-bench-"));
    const run = await runWithPeak(
      [join(ROOT, "bin", "idconform.js"), "run", join(ROOT, "profiles", "demo", "scim.yaml"), "--out", dir],
      { ...target.env, IDC_DEMO_SCIM_URL: `${proxy.url}${base.pathname}${base.search}` },
    );
    rows.push([
      `peak RSS: scim run, every JSON answer padded to the ${CAP / MB} MiB cap (${padding === "string" ? "one long member" : "as many keys as fit"}), exit ${run.code}, ${(run.ms / 1000).toFixed(0)} s`,
      `${(run.peakBytes / MB).toFixed(0)} MB`,
      "< 400 MB",
      run.peakBytes < 400 * MB && run.code !== null,
    ]);
  } finally {
    await proxy.close();
    await target.close();
  }
}
for (const fault of ["mint-huge-token", "mint-many-secrets", "hello-deep-json"]) {
  const target = await startFixtureTarget({ faults: [fault] });
  try {
    const dir = mkdtempSync(join(tmpdir(), "idc-bench-"));
    const profile = join(dir, "p.yaml");
    writeFileSync(
      profile,
      `name: bench\noptions:\n  allowInsecureHttp: true\nsuites:\n  fixture:\n    baseUrl: \${IDC_DEMO_FIXTURE_URL}\n    token: \${IDC_DEMO_FIXTURE_TOKEN}\n    probes:\n      tokenActive:\n        path: /private/probe\n`,
    );
    const run = await runWithPeak(
      [join(ROOT, "bin", "idconform.js"), "run", profile, "--out", join(dir, "out")],
      target.env,
    );
    rows.push([
      `peak RSS: fixture run against ${fault}, exit ${run.code}`,
      `${(run.peakBytes / MB).toFixed(0)} MB`,
      "< 400 MB",
      run.peakBytes < 400 * MB && run.code !== null,
    ]);
  } finally {
    await target.close();
  }
}

// Redaction cost with many secrets (hostile targets item 1: it used to grow with the count).
{
  const secrets = Array.from({ length: 1000 }, (_, i) => ({
    value: `${randomBytes(24).toString("base64url")}${i}`,
    name: "ACCESS_TOKEN",
  }));
  const body = Array.from({ length: 4 * 1024 }, (_, i) =>
    i % 64 === 0 ? (secrets[i % 1000]?.value ?? "") : "x".repeat(1000),
  ).join(" ");
  const r = new Redactor(secrets);
  r.text("warm up");
  const t: number[] = [];
  for (let i = 0; i < 3; i++) {
    const s0 = performance.now();
    r.text(body);
    t.push(performance.now() - s0);
  }
  rows.push([
    "redacting a 4 MB body with 1,000 secrets registered",
    `${median(t).toFixed(0)} ms`,
    "< 1000 ms",
    median(t) < 1000,
  ]);
}

// Mutation testing runs too long for a bench round: the last full `npm run mutation` of each
// suite is shown (issue 10: scim under 60 minutes; every suite at least 85 %).
const unmeasured: string[] = [];
for (const suite of mutableSuites()) {
  const file = join(ROOT, "reports", "mutation", suite, "summary.json");
  const s = existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as { files: unknown; score: number; minutes: number })
    : undefined;
  if (s === undefined || s.files !== "all protocol files") {
    unmeasured.push(`npm run mutation -- --suite ${suite}`);
    continue;
  }
  rows.push([
    `npm run mutation -- --suite ${suite} (last full run): score`,
    `${s.score} %`,
    ">= 85 %",
    s.score >= 85,
  ]);
  rows.push([
    `npm run mutation -- --suite ${suite} (last full run): time`,
    `${s.minutes} min`,
    "< 60 min",
    s.minutes < 60,
  ]);
}

const w = Math.max(...rows.map((r) => r[0].length));
for (const [name, value, bound, ok] of rows)
  console.log(`${name.padEnd(w)}  ${value.padStart(10)}  ${bound.padEnd(10)}  ${ok ? "ok" : "OVER"}`);
if (unmeasured.length > 0)
  console.log(`not measured yet (no full run recorded here): ${unmeasured.join("; ")}`);
process.exitCode = rows.every((r) => r[3]) ? 0 : 1;
