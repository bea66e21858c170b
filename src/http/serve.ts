import { serve as honoServe } from "@hono/node-server";
import { createServer as createHttpsServer } from "node:https";
import type { Hono } from "hono";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { RunningServer } from "../engine/target.js";

/**
 * Starts a Hono app on loopback (port 0 unless told) for mocks and reference targets.
 * `close` also drops keep-alive and hanging connections, so no test leaves a socket open.
 */
export async function serveApp(
  app: Hono,
  opts: {
    port?: number;
    host?: string;
    tls?: { key: string; cert: string };
    /** Request header bytes the server accepts (Node's default: 16 KB). */
    maxHeaderBytes?: number;
  } = {},
): Promise<RunningServer> {
  const host = opts.host ?? "127.0.0.1";
  const limits = opts.maxHeaderBytes !== undefined ? { maxHeaderSize: opts.maxHeaderBytes } : {};
  const tls = opts.tls
    ? { createServer: createHttpsServer, serverOptions: { ...opts.tls, ...limits } }
    : { serverOptions: limits };
  const server = await new Promise<Server>((resolve, reject) => {
    const s = honoServe({ fetch: app.fetch, port: opts.port ?? 0, hostname: host, ...tls }, () =>
      resolve(s as Server),
    );
    (s as Server).once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `${opts.tls ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
