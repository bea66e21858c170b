import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import type { JSONWebKeySet } from "jose";
import { HarnessError } from "../../src/engine/errors.js";
import type { MockModule } from "../../src/engine/mock.js";
import type { RunningServer } from "../../src/engine/target.js";
import { serveApp } from "../../src/http/serve.js";
import { mountControlRoutes } from "./control-routes.js";
import { issuerKeys } from "./keys.js";
import { mountPushRoute, type PushNotice } from "./push-route.js";
import { ReceiverState, type Slot, type SlotJudgeSource } from "./state.js";
import type { ReceiverStats, SlotCreated } from "./types.js";

export interface ReceiverOptions {
  readonly port?: number;
  readonly host?: string;
  /** Where the Transmitter reaches the mock (default: where it listens); push endpoints are under it. */
  readonly publicUrl?: string;
  /**
   * Standalone: the Transmitter's issuer. The default slot judges SETs against it, fetching its
   * keys through discovery (`jwks_uri`).
   */
  readonly issuer?: string;
  /** Standalone: the Authorization the default slot expects (a secret, never printed). */
  readonly authorization?: string;
  /** Standalone: make the default slot, `/push/default`. */
  readonly defaultSlot?: boolean;
  /** Hears every push (the standalone printer); called before the answer is sent. */
  readonly onPush?: (n: PushNotice) => void;
  /** Hears problems fetching the issuer's keys. */
  readonly onKeyProblem?: (message: string) => void;
}

export interface MockReceiver extends RunningServer {
  readonly publicUrl: string;
  /** The `x-idc-control` value of the control routes (client.ts). */
  readonly controlToken: string;
  /** The default slot's push endpoint (with `defaultSlot`). */
  readonly endpointUrl?: string;
  /** What `idconform mock receiver` prints: where to push and how to read the log (no secret but the control token). */
  readonly info: string;
  /** In-process: a push endpoint for one stream, like `POST /__idc/slots`. */
  createSlot(o?: {
    authorization?: string;
    judge?: { issuer: string; jwks: JSONWebKeySet; audience?: string | string[] };
  }): SlotCreated;
  stats(): ReceiverStats;
  /** Stored bytes of the log now (tests of the bounds). */
  readonly bytesStored: number;
}

/**
 * The Receiver idconform plays toward a Transmitter (specs/002 area B; SSF 1.0, RFC 8935;
 * public-spec-facts §4): push endpoints `POST /push/<slot>`, one per stream a check creates,
 * that check the Authorization given at stream creation, cap bodies at 64 KiB, judge every
 * SET with the validator, keep a bounded log and exact counters, and answer 202 unless a
 * check armed another answer; control routes under `/__idc/` (control-routes.ts, client.ts).
 * Polling is the checks' own request to the Transmitter, so the mock has no poller.
 * It binds 127.0.0.1 unless told otherwise.
 */
export async function startReceiver(opts: ReceiverOptions = {}): Promise<MockReceiver> {
  for (const u of [opts.publicUrl, opts.issuer])
    if (u !== undefined && !URL.canParse(u))
      throw new HarnessError("IDC_USAGE", "the mock Receiver's publicUrl and issuer must be absolute URLs");
  const token = randomBytes(18).toString("base64url");
  const givenBase = opts.publicUrl?.replace(/\/$/, "");
  let base = givenBase ?? "http://127.0.0.1";
  const state = new ReceiverState(() => base);
  const closing = new AbortController();
  const app = new Hono();
  mountControlRoutes(app, token, state);
  mountPushRoute(app, state, { closing: closing.signal, ...(opts.onPush ? { notice: opts.onPush } : {}) });

  const server = await serveApp(app, {
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.host !== undefined ? { host: opts.host } : {}),
  });
  // Only now is the listening URL known: the default base is where it listens.
  base = givenBase ?? server.url;

  const noJudge: SlotJudgeSource = { issuer: null, keys: () => Promise.resolve(null) };
  let main: Slot | undefined;
  if (opts.defaultSlot || opts.issuer !== undefined || opts.authorization !== undefined) {
    const judge =
      opts.issuer !== undefined ? issuerKeys(opts.issuer, opts.onKeyProblem ?? (() => undefined)) : noJudge;
    main = state.addSlot({
      id: "default",
      ...(opts.authorization !== undefined ? { authorization: opts.authorization } : {}),
      judge,
    });
  }

  return {
    url: server.url,
    publicUrl: base,
    controlToken: token,
    ...(main ? { endpointUrl: main.endpointUrl } : {}),
    info: usageInfo(server.url, token, main, opts),
    createSlot: (o = {}) => {
      const j = o.judge;
      const slot = state.addSlot({
        ...(o.authorization !== undefined ? { authorization: o.authorization } : {}),
        judge: j
          ? {
              issuer: j.issuer,
              ...(j.audience !== undefined ? { audience: j.audience } : {}),
              keys: () => Promise.resolve(j.jwks),
            }
          : noJudge,
      });
      if (!slot) throw new HarnessError("IDC_USAGE", "the mock Receiver holds as many slots as it keeps");
      return { slot: slot.id, endpointUrl: slot.endpointUrl };
    },
    stats: () => state.stats(),
    get bytesStored() {
      return state.bytesStored;
    },
    close: async () => {
      closing.abort();
      state.close();
      await server.close();
    },
  };
}

function usageInfo(url: string, token: string, main: Slot | undefined, o: ReceiverOptions): string {
  const lines: string[] = [];
  if (main) {
    lines.push(`push endpoint (give it to the Transmitter as endpoint_url): ${main.endpointUrl}`);
    lines.push(
      o.authorization !== undefined
        ? "pushes must carry the Authorization given (--authorization); others are answered 401"
        : "no --authorization given: pushes are accepted with any Authorization or none",
    );
    lines.push(
      o.issuer !== undefined
        ? `SETs are judged against issuer ${o.issuer} and its jwks_uri keys`
        : "no --issuer given: signatures are not verified, iss is judged by form only",
    );
  }
  lines.push(`control token: ${token}`);
  lines.push(`make a push endpoint for a stream, read what arrived:`);
  lines.push(
    `  curl -X POST ${url}/__idc/slots -H 'x-idc-control: ${token}' -H 'content-type: application/json' -d '{}'`,
  );
  lines.push(`  curl ${url}/__idc/slots/<slot>/sets -H 'x-idc-control: ${token}'`);
  return `${lines.join("\n")}\n`;
}

const mock: MockModule & { command(argv: string[]): Promise<number> } = {
  role: "receiver",
  description:
    "the SSF Receiver (CAEP transmitter suite): push endpoints that judge every SET they receive, control via /__idc/slots",
  start: (opts) =>
    startReceiver({
      ...(opts.port !== undefined ? { port: opts.port } : {}),
      ...(opts.host ? { host: opts.host } : {}),
    }),
  /** `idconform mock receiver ...`: its own options (--issuer, --authorization, --public-url). */
  command: async (argv) => (await import("./cli.js")).receiverCommand(argv),
};
export default mock;
