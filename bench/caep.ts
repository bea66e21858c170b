// CAEP push rate for `npm run bench` (issue 14, speed): the mock Transmitter signs and pushes SETs
// to a loopback Receiver that answers 202 at once. Goal: at least 2,000 signed SETs per second.
// The SETs are signed on the way (each with a fresh jti), so the rate includes signing.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyPair, exportJWK } from "jose";
import { pushMany } from "../mocks/transmitter/pusher.js";
import { buildSet, exampleSubject, signSet } from "../mocks/transmitter/set.js";
import { CAEP_EVENT_NAMES } from "../src/protocols/caep.js";

const SETS = 6000;
const ROUNDS = 3;

/** A Receiver that reads each body whole and answers 202 with no body (RFC 8935 §2.2). */
async function instantReceiver(): Promise<{
  url: string;
  received: () => number;
  close: () => Promise<void>;
}> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/ssf/push`,
    received: () => received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The bench row: the median rate of a few rounds, each pushing SETS freshly signed SETs. */
export async function caepPushRows(): Promise<[string, string, string, boolean][]> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: "ES256", kid: "bench" };
  const receiver = await instantReceiver();
  const rates: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const before = receiver.received();
      const r = await pushMany({
        endpoint: receiver.url,
        authorization: "Bearer bench",
        count: SETS,
        make: (i) =>
          signSet(
            buildSet({
              issuer: "https://transmitter.bench.invalid",
              audience: "https://receiver.bench.invalid",
              event: CAEP_EVENT_NAMES[i % CAEP_EVENT_NAMES.length]!,
              subject: exampleSubject("email", i),
            }),
            jwk,
          ),
      });
      // Every SET answered 202 and counted by the Receiver, or the rate means nothing.
      if (r.statuses[202] !== SETS || receiver.received() - before !== SETS)
        throw new Error(`push bench: ${JSON.stringify(r.statuses)} of ${SETS}`);
      rates.push(r.rate);
    }
  } finally {
    await receiver.close();
  }
  const rate = [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)]!;
  return [
    [
      `CAEP: mock Transmitter pushes signed SETs (ES256) to a loopback Receiver answering 202`,
      `${Math.round(rate)} SETs/s`,
      `>= 2000 SETs/s`,
      rate >= 2000,
    ],
  ];
}
