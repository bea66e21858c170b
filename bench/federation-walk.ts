// Child process of `npm run bench` (bench/federation.ts): walks the extended list of a federation
// target running in another process, at its default page size, with the suite's own walker run
// as a check (the recording client, the evidence, the walk's bounds), and prints one JSON line:
// the walk's time, its pages and entries, the exchanges its evidence kept, and this process's
// peak RSS. The harness's memory is this process alone: the target's is not counted.
import { join } from "node:path";
import { runCheck } from "../src/engine/check-runner.js";
import { defineCheck } from "../src/engine/check.js";
import { loadSuites, ROOT } from "../src/engine/discovery.js";
import { loadProfile } from "../src/engine/profile.js";
import { closeAgents } from "../src/http/client.js";
import { Fed } from "../suites/federation/client.js";
import type { FederationProfile } from "../suites/federation/profile.js";
import { walkExtendedList, type Walk } from "../suites/federation/walk.js";

const [manifest] = await loadSuites(["federation"]);
if (!manifest) throw new Error("no federation suite");
// The reference Intermediate: the generated members (`--members N`) are its subordinates.
const profile = loadProfile(join(ROOT, "profiles", "demo", "federation-intermediate.yaml"), [manifest]);
const section = profile.suites.federation;
if (!section) throw new Error("the profile has no suites.federation");

let walk: Walk | undefined;
const check = defineCheck<FederationProfile>({
  id: "bench.federation-xl-walk",
  title: "the extended list walked at the target's default page size",
  requirements: [],
  timeoutMs: 120_000,
  async run(c) {
    const url = await new Fed(c).endpoint("federation_extended_list_endpoint");
    walk = await walkExtendedList(c, url, { label: "extended list" });
  },
});
const started = performance.now();
const result = await runCheck(check, {
  suite: "federation",
  section: manifest.title,
  profile: section,
  features: section.features,
  probes: section.probes,
  client: {
    requestTimeoutMs: profile.options.timeouts.requestMs,
    maxResponseBytes: profile.options.maxResponseBytes,
    allowInsecureHttp: profile.options.allowInsecureHttp,
    caFile: profile.options.tls.caFile,
    maxRedirects: profile.options.maxRedirects,
  },
  secrets: profile.secrets,
  seed: 1,
  runId: "bench",
  provided: {},
  observers: manifest.observers ?? [],
});
const ms = performance.now() - started;
await closeAgents();
const w = walk as Walk | undefined;
process.stdout.write(
  `${JSON.stringify({
    ms,
    pages: w?.pages.length ?? 0,
    entries: w?.ids.length ?? 0,
    stopped: w?.stopped ?? null,
    evidence: result.exchanges.length,
    notes: result.notes,
    // Kilobytes (process.resourceUsage): the most this process ever held resident.
    peakBytes: process.resourceUsage().maxRSS * 1024,
  })}\n`,
);
