import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberAt } from "../../suites/vci/client.js";
import { demoVci, runVciChecks } from "../helpers/vci-flow.js";

async function bodyOf(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const p of req) parts.push(p as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

/**
 * A product's own offer-creation endpoint: it answers `{data: {offer: {uri}}, meta: {tx: {code}}}`.
 * It makes the offer with the reference issuer's hook, named (with its CA file) in the
 * profile's headers, so the profile's `${VAR}`s reach it.
 */
function productHook(): Server {
  return createServer((req, res) => {
    void (async () => {
      const to = String(req.headers["x-forward-to"]);
      const ca = readFileSync(String(req.headers["x-ca-file"]), "utf8");
      const dispatcher = new Agent({ connect: { ca } });
      try {
        const r = await request(to, {
          method: "POST",
          headers: { authorization: String(req.headers.authorization), "content-type": "application/json" },
          body: await bodyOf(req),
          dispatcher,
        });
        const got = (await r.body.json()) as { offer: string; tx_code?: string };
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            data: { offer: { uri: got.offer } },
            meta: { tx: { code: got.tx_code ?? null } },
          }),
        );
      } finally {
        await dispatcher.close();
      }
    })().catch(() => {
      res.writeHead(502).end();
    });
  });
}

// Issue item 13: offerMember and txCodeMember are paths into the hook's answer.
describe("offer hooks with other answer shapes (profile offers.trigger.offerMember, txCodeMember)", () => {
  let hook: Server;
  let url: string;
  beforeAll(async () => {
    hook = productHook();
    await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/offers`;
  });
  afterAll(() => new Promise<void>((r) => hook.close(() => r())));

  it("reads a member by its name, else along a dotted path; nothing past a non-object", () => {
    const answer = { "a.b": 1, data: { offer: { uri: "x" } }, list: ["y"] };
    expect(memberAt(answer, "a.b")).toBe(1);
    expect(memberAt(answer, "data.offer.uri")).toBe("x");
    expect(memberAt(answer, "data.offer.uri.more")).toBeUndefined();
    expect(memberAt(answer, "data.missing")).toBeUndefined();
    expect(memberAt(answer, "list.0")).toBeUndefined();
    expect(memberAt(answer, "data.__proto__")).toBeUndefined();
  });

  it("offers and tx_codes at data.offer.uri and meta.tx.code of a product's own endpoint are used", async () => {
    const yaml = demoVci((y) =>
      y
        .replace("  timeouts:\n", "  allowInsecureHttp: true\n  timeouts:\n")
        .replace(
          /        url: \$\{IDC_DEMO_VCI_HOOK_URL\}\n        headers:\n/,
          `        url: ${url}\n        offerMember: data.offer.uri\n        txCodeMember: meta.tx.code\n        headers:\n          x-forward-to: \${IDC_DEMO_VCI_HOOK_URL}\n          x-ca-file: \${IDC_DEMO_VCI_CA_FILE}\n`,
        ),
    );
    expect(yaml).toContain("offerMember: data.offer.uri");
    const r = await runVciChecks(["vci.token.pre-authorized", "vci.token.tx-code"], { yaml });
    expect(r.verdict["VCI-TOKEN-PRE-AUTH"], r.said("VCI-TOKEN-PRE-AUTH")).toBe("pass");
    expect(r.verdict["VCI-TOKEN-TX-WRONG"], r.said("VCI-TOKEN-TX-WRONG")).toBe("pass");
    expect(r.verdict["VCI-TOKEN-TX-MISSING"]).toBe("pass");
  }, 60_000);
});
