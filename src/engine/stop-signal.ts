import { randomBytes } from "node:crypto";
import { connect, createServer, type Socket } from "node:net";

/**
 * Carries "stop now" from the harness process to the vitest workers. vitest's
 * cancelCurrentRun lets a running test finish, so a check stuck on a slow target would
 * hold an interrupted run for its whole timeout; each worker therefore keeps one loopback
 * socket open to the runner, and a byte on it aborts every check of that worker.
 */
export interface StopServer {
  readonly port: number;
  readonly token: string;
  trigger(): void;
  close(): Promise<void>;
}

export async function startStopServer(): Promise<StopServer> {
  const token = randomBytes(16).toString("hex");
  const sockets = new Set<Socket>();
  let stopped = false;
  const server = createServer((s) => {
    s.setEncoding("utf8");
    s.once("data", (d: string) => {
      if (d.trim() !== token) return void s.destroy();
      sockets.add(s);
      if (stopped) s.end("stop\n");
    });
    s.on("error", () => sockets.delete(s));
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    token,
    trigger: () => {
      stopped = true;
      for (const s of sockets) s.end("stop\n");
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

let workerSignal: AbortSignal | undefined;

/** The worker's stop signal (one socket per worker, unref'd so it never keeps a worker alive). */
export function stopSignal(port: number, token: string): AbortSignal {
  if (workerSignal) return workerSignal;
  const ac = new AbortController();
  workerSignal = ac.signal;
  const s = connect(port, "127.0.0.1", () => s.write(`${token}\n`));
  s.on("data", () => ac.abort(new Error("the run was stopped")));
  s.on("error", () => undefined);
  s.unref();
  return workerSignal;
}
