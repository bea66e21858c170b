import { Hono, type Context } from "hono";
import { MockControl } from "../../src/http/mock-control.js";
import { serveApp } from "../../src/http/serve.js";
import type { MockModule } from "../../src/engine/mock.js";
import type { RunningServer } from "../../src/engine/target.js";
import { recordUrl } from "./record.js";

export { recordedUrl } from "./record.js";

export interface MockWallet extends RunningServer {
  /** `${url}/offer`: the Wallet Credential Offer Endpoint (its `credential_offer_endpoint`). */
  readonly offerEndpoint: string;
  /** `${url}/callback`: where the Authorization Server sends the authorization response. */
  readonly redirectUri: string;
  readonly control: MockControl;
}

const page = (text: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${text}</title></head><body><p>${text}</p></body></html>`;

/**
 * The HTTP side of the Wallet idconform plays (specs/000 Roles: Wallet): a Credential Offer
 * Endpoint that records each invocation and answers the browser a small page (the Wallet
 * sends no response to the issuer, Endpoints: Wallet Credential Offer Endpoint), and a
 * redirect URI that records the authorization response. Each is logged in the MockControl
 * log with `path` `/offer[/<slot>]` or `/callback[/<slot>]` (the pathname) and the raw path and
 * query as `body` (read it with `recordedUrl`). The Wallet's
 * requests to the issuer are made by the checks, with the helpers next to this file.
 */
export async function startWallet(
  opts: { port?: number; host?: string; publicUrl?: string } = {},
): Promise<MockWallet> {
  const control = new MockControl();
  const app = new Hono();
  control.mount(app);
  // `/offer/<slot>` and `/callback/<slot>` too: each check can hand out its own address and
  // wait for exactly its own entry.
  for (const [path, text] of [
    ["/offer", "offer received"],
    ["/callback", "authorization received"],
  ] as const) {
    const handler = async (c: Context): Promise<Response> => {
      await recordUrl(control, c);
      return c.html(page(text), 200, { "cache-control": "no-store" });
    };
    app.get(path, handler);
    app.get(`${path}/*`, handler);
  }
  const server = await serveApp(app, {
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.host !== undefined ? { host: opts.host } : {}),
  });
  const base = opts.publicUrl?.replace(/\/$/, "") ?? server.url;
  return { ...server, offerEndpoint: `${base}/offer`, redirectUri: `${base}/callback`, control };
}

const mock: MockModule = {
  role: "wallet",
  description:
    "the Wallet (credential issuance): Credential Offer Endpoint at /offer, redirect URI at /callback, both recorded",
  start: (opts) =>
    startWallet({
      ...(opts.port !== undefined ? { port: opts.port } : {}),
      ...(opts.host !== undefined ? { host: opts.host } : {}),
    }),
};
export default mock;
