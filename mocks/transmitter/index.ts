import { Hono } from "hono";
import type { JWK } from "jose";
import { HarnessError } from "../../src/engine/errors.js";
import type { MockModule } from "../../src/engine/mock.js";
import type { RunningServer } from "../../src/engine/target.js";
import { MockControl } from "../../src/http/mock-control.js";
import { serveApp } from "../../src/http/serve.js";
import {
  CAEP_EVENT_NAMES,
  SSF_VERIFICATION_EVENT,
  eventUri,
  ssfConfigurationUrl,
} from "../../src/protocols/caep.js";
import { newSigningKey } from "../identity-service/index.js";
import { publicJwk } from "../identity-service/assertion.js";
import { mountControlRoutes } from "./control-routes.js";
import { completeKey, type SetEvent } from "./set.js";
import { mountSsfRoutes } from "./ssf-routes.js";
import { TransmitterState } from "./state.js";
import type { DeliveryKind, EmitAnswer, StreamView } from "./types.js";

/** A stream the profile configured (the Receiver does not create it at the mock). */
export type PreconfiguredStream =
  | {
      readonly delivery: "push";
      readonly endpointUrl: string;
      /** The Authorization value the Receiver expects on pushes (a secret). */
      readonly authorization?: string;
      readonly streamId?: string;
      readonly audience?: string;
      readonly eventsRequested?: readonly string[];
    }
  | { readonly delivery: "poll"; readonly streamId: string; readonly audience?: string };

export interface TransmitterOptions {
  readonly port?: number;
  readonly host?: string;
  /** Where the Receiver reaches the mock (default: where it listens); endpoints are published under it. */
  readonly publicUrl?: string;
  /** The issuer it signs as and publishes discovery for (default: publicUrl). */
  readonly issuer?: string;
  /** The private JWK its own SETs are signed with (default: a fresh ES256 key with a thumbprint kid). */
  readonly signingKey?: JWK;
  /** What discovery advertises in delivery_methods_supported (default both). */
  readonly deliveryMethods?: readonly DeliveryKind[];
  /** The Bearer token stream management and poll calls must carry; without it any Bearer token is accepted. */
  readonly receiverToken?: string;
  /** The `aud` of streams the Receiver creates (default: the push endpoint's origin, or "idconform-receiver"). */
  readonly audience?: string;
  readonly streams?: readonly PreconfiguredStream[];
  /** Event type URIs offered in events_supported (default: the eight CAEP types and verification). */
  readonly eventsSupported?: readonly string[];
  /** How long a poll without returnImmediately waits for SETs, at most 2000 ms (the default). */
  readonly longPollMs?: number;
}

export interface MockTransmitter extends RunningServer {
  readonly issuer: string;
  readonly publicUrl: string;
  /** The discovery document's URL (the well-known segment after the host, SSF). */
  readonly discoveryUrl: string;
  readonly control: MockControl;
  readonly controlToken: string;
  /** The key its own SETs are signed with now (the checks sign theirs with it too). */
  readonly signingKey: JWK;
  /** The key set `jwks_uri` publishes now. */
  readonly jwks: { keys: JWK[] };
  /** What `idconform mock transmitter` prints: URLs and how to emit (no secret but the control token). */
  readonly info: string;
  streams(): StreamView[];
  /** The first stream once one exists (a Receiver created it, or the profile gave it), or undefined at the timeout. */
  waitForStream(timeoutMs: number): Promise<StreamView | undefined>;
  emit(o: {
    event: SetEvent;
    subject?: Record<string, unknown>;
    claims?: Record<string, unknown>;
    streamId?: string;
  }): Promise<EmitAnswer>;
}

/** The event types a Transmitter offers by default: the eight CAEP types and the SSF verification event. */
export const DEFAULT_EVENTS: readonly string[] = [...CAEP_EVENT_NAMES.map(eventUri), SSF_VERIFICATION_EVENT];
const MAX_LONG_POLL_MS = 2000;

/**
 * The Transmitter idconform plays toward a Receiver (specs/002 area B; SSF 1.0, RFC 8935,
 * RFC 8936; public-spec-facts §4): discovery at `/.well-known/ssf-configuration` (with the
 * issuer's path after it), `jwks_uri`, stream management for a Receiver that creates its own
 * stream, a poll endpoint per poll stream with long polling, and control routes under
 * `/__idc/` for the checks (control-routes.ts). It binds 127.0.0.1 unless told otherwise.
 */
export async function startTransmitter(opts: TransmitterOptions = {}): Promise<MockTransmitter> {
  if (opts.signingKey !== undefined && typeof opts.signingKey.d !== "string")
    throw new HarnessError(
      "IDC_USAGE",
      "the mock Transmitter's signingKey is not a private JWK (it has no d)",
    );
  const signingKey = await completeKey(opts.signingKey ?? (await newSigningKey()));
  const methods = opts.deliveryMethods ?? ["push", "poll"];
  if (methods.length === 0 || !methods.every((m) => m === "push" || m === "poll"))
    throw new HarnessError("IDC_USAGE", 'deliveryMethods: give "push", "poll" or both');
  for (const u of [opts.publicUrl, opts.issuer])
    if (u !== undefined && !URL.canParse(u))
      throw new HarnessError(
        "IDC_USAGE",
        `the mock Transmitter's publicUrl and issuer must be absolute URLs`,
      );

  const control = new MockControl();
  const app = new Hono();
  // Routes are laid out before listening, so they come from the URLs given (paths only).
  const givenBase = opts.publicUrl?.replace(/\/$/, "");
  const layout = {
    base: givenBase ?? "http://127.0.0.1",
    issuer: opts.issuer ?? givenBase ?? "http://127.0.0.1",
  };
  const config = {
    issuer: layout.issuer,
    base: layout.base,
    deliveryMethods: [...new Set(methods)],
    eventsSupported: [...(opts.eventsSupported ?? DEFAULT_EVENTS)],
    ...(opts.receiverToken !== undefined ? { receiverToken: opts.receiverToken } : {}),
    ...(opts.audience !== undefined ? { audience: opts.audience } : {}),
    longPollMs: Math.max(0, Math.min(opts.longPollMs ?? MAX_LONG_POLL_MS, MAX_LONG_POLL_MS)),
  };
  const state = new TransmitterState(config, signingKey, { keys: [publicJwk(signingKey)] });
  // Its own /__idc/log goes first (it also serves set-up requests the shared log let go).
  mountControlRoutes(app, control, state);
  control.mount(app);
  mountSsfRoutes(app, control, state);

  const server = await serveApp(app, {
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.host !== undefined ? { host: opts.host } : {}),
  });
  // Only now is the listening URL known: the default base and issuer are where it listens.
  const base = givenBase ?? server.url;
  const issuer = opts.issuer ?? base;
  Object.assign(config, { base, issuer });

  for (const p of opts.streams ?? []) {
    const added = state.addStream({
      ...(p.streamId !== undefined ? { id: p.streamId } : {}),
      delivery: p.delivery,
      ...(p.delivery === "push"
        ? {
            endpointUrl: p.endpointUrl,
            ...(p.authorization !== undefined ? { authorization: p.authorization } : {}),
            eventsRequested: [...(p.eventsRequested ?? config.eventsSupported)],
          }
        : { eventsRequested: [...config.eventsSupported] }),
      aud:
        p.audience ??
        opts.audience ??
        (p.delivery === "push" ? new URL(p.endpointUrl).origin : "idconform-receiver"),
      createdBy: "profile",
    });
    if (!added) throw new HarnessError("IDC_USAGE", "too many preconfigured streams");
  }

  const discoveryUrl = ssfConfigurationUrl(issuer);
  const handle: MockTransmitter = {
    url: server.url,
    issuer,
    publicUrl: base,
    discoveryUrl,
    control,
    controlToken: control.token,
    get signingKey() {
      return state.signingKey;
    },
    get jwks() {
      return state.jwks;
    },
    info: usageInfo(server.url, discoveryUrl, control.token, config),
    streams: () => state.views(),
    waitForStream: async (timeoutMs) => {
      await state.changes.wait(() => state.streams.size > 0, timeoutMs);
      return state.views()[0];
    },
    emit: async (o) => {
      const s = state.stream(o.streamId);
      if (!s)
        throw new HarnessError(
          "IDC_USAGE",
          o.streamId ? `no stream ${o.streamId}` : "there is no stream yet",
        );
      return state.emit(s, o);
    },
    close: async () => {
      await state.close();
      await server.close();
    },
  };
  return handle;
}

function usageInfo(
  url: string,
  discoveryUrl: string,
  token: string,
  c: { issuer: string; deliveryMethods: readonly string[]; receiverToken?: string },
): string {
  return [
    `issuer ${c.issuer}, discovery ${discoveryUrl}`,
    `delivery methods offered: ${c.deliveryMethods.join(", ")}`,
    c.receiverToken !== undefined
      ? "stream management and poll calls must carry the receiver token given (Bearer)"
      : "no receiver token given: any Bearer token is accepted on stream management and poll calls",
    `control token: ${token}`,
    "emit an event to the Receiver's stream:",
    `  idconform mock transmitter --emit session-revoked --subject email:user@example.com --url ${url} --control-token ${token}`,
    `  curl -X POST ${url}/__idc/emit -H 'x-idc-control: ${token}' -H 'content-type: application/json' \\`,
    `    -d '{"event":"session-revoked","subject":{"format":"email","email":"user@example.com"}}'`,
    "",
  ].join("\n");
}

const mock: MockModule & { command(argv: string[]): Promise<number> } = {
  role: "transmitter",
  description:
    "the SSF Transmitter (CAEP receiver suite): discovery, jwks_uri, stream management, poll endpoint, emit via /__idc/emit",
  start: (opts) =>
    startTransmitter({
      ...(opts.port !== undefined ? { port: opts.port } : {}),
      ...(opts.host ? { host: opts.host } : {}),
    }),
  /** `idconform mock transmitter ...`: its own options (serve with --delivery, --public-url; or --emit). */
  command: async (argv) => (await import("./cli.js")).transmitterCommand(argv),
};
export default mock;
