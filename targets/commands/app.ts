import { Hono } from "hono";
import { commandEndpoint } from "./command-route.js";
import type { FaultSet } from "./faults.js";
import { CommandError, createReplier } from "./http/reply.js";
import { AccountCommands } from "./service/account-commands.js";
import { AccountStore } from "./service/account-store.js";
import { AccountView } from "./service/account-view.js";
import { AsyncCommands } from "./service/async-commands.js";
import { Notifier } from "./service/notifier.js";
import { MetadataStore } from "./service/op-metadata.js";
import { probeRoute } from "./service/probe-route.js";
import type { RpKeys } from "./service/rp-keys.js";
import { Scheduler } from "./service/scheduler.js";
import { SessionRegistry } from "./service/sessions.js";
import { StreamHistory } from "./stream/history.js";
import { JtiCache } from "./token/jti-cache.js";
import type { TrustedOp } from "./token/op-keys.js";

// Stryker disable next-line StringLiteral: the Command Endpoint URL is the RP's to register; the profile's baseUrl and command_endpoint follow it
export const COMMAND_PATH = "/commands";
// Stryker disable next-line StringLiteral: the jwks_uri is the RP's to choose; the Metadata Response names it
export const JWKS_PATH = "/jwks";

export interface CommandsAppOptions {
  readonly faults: FaultSet;
  /** The origin the server listens on (`http://127.0.0.1:port`), known once it listens. */
  readonly origin: () => string;
  readonly clientId: string;
  readonly op: TrustedOp;
  readonly rpKeys: RpKeys;
}

/** The app and what must stop with the server (timers, notifications under way). */
export interface CommandsApp {
  readonly app: Hono;
  close(): void;
}

/**
 * The RP of specs/002 area A, as one Hono app: the Command Endpoint (POST /commands), the
 * RP's JWK Set for Notification Tokens (GET /jwks) and the session probe. All state is in
 * memory.
 */
export function createCommandsApp(o: CommandsAppOptions): CommandsApp {
  const { faults } = o;
  const reply = createReplier(faults);
  const accounts = new AccountStore();
  const sessions = new SessionRegistry();
  const view = new AccountView(faults);
  const metadata = new MetadataStore(faults.has("metadata-not-replaced"), faults);
  const scheduler = new Scheduler();
  const notifier = new Notifier({ keys: o.rpKeys, metadata, origin: o.origin, clientId: o.clientId });
  const accountCommands = new AccountCommands(accounts, sessions, view, faults);
  const asyncCommands = new AsyncCommands({
    commands: accountCommands,
    accounts,
    view,
    notifier,
    scheduler,
    faults,
  });
  const jtis = new JtiCache();
  const commandUrl = () => `${o.origin()}${COMMAND_PATH}`;

  const app = new Hono();
  app.post(
    COMMAND_PATH,
    commandEndpoint({
      faults,
      reply,
      verify: () => ({ op: o.op, commandEndpoint: commandUrl(), clientId: o.clientId, jtis, faults }),
      accountCommands,
      asyncCommands,
      metadata: {
        metadata,
        faults,
        clientId: o.clientId,
        commandEndpoint: commandUrl,
        jwksUri: () => `${o.origin()}${JWKS_PATH}`,
      },
      stream: { accounts, view, history: new StreamHistory(), faults },
    }),
  );
  // Stryker disable next-line all: the document defines POST only (Endpoints); what other methods answer it leaves open
  app.all(COMMAND_PATH, (c) =>
    // Stryker disable next-line StringLiteral: see above
    reply.error(new CommandError(405, "invalid_request", `${c.req.method} is not allowed; use POST`)),
  );
  app.get(JWKS_PATH, (c) => c.json(o.rpKeys.jwks()));
  app.route("/probe", probeRoute(o.op.issuer, accounts, sessions));
  // Stryker disable next-line all: paths outside the protocol: what they answer the document leaves open
  app.notFound((c) => c.json({ error: "not_found" }, 404));
  // Anything unexpected becomes a bare 500: never a stack, a path or a framework name.
  app.onError((err) =>
    err instanceof CommandError
      ? reply.error(err)
      : // Stryker disable next-line StringLiteral: the document gives a 5xx no body (Errors)
        reply.error(new CommandError(500, "server_error", undefined)),
  );
  return {
    app,
    // Stryker disable next-line BlockStatement: server plumbing: timers stopped after the run
    close: () => {
      scheduler.close();
      notifier.close();
    },
  };
}
