import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSuite } from "../../src/engine/in-process.js";

/** A probe endpoint that refuses every subject, and counts how often it was asked. */
let asked = 0;
let server: Server;
let url = "";
beforeAll(async () => {
  server = createServer((_req, res) => {
    asked++;
    res.writeHead(403, { "content-type": "text/plain" }).end("forbidden");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("a probe that refuses a subject just created is a setup problem of the profile (issue 12 item 2)", () => {
  it.each([
    [
      "scim",
      "IDC_DEMO_SCIM_PROBE",
      "/access/{id}",
      "scim.user-deactivation-revokes",
      "suites.scim.probes.userAccess",
      /for a user just created and active/,
    ],
    [
      "commands",
      "IDC_DEMO_COMMANDS_PROBE",
      "/access/{sub}",
      "commands.invalidation-effects",
      "suites.commands.probes.accountAccess",
      /for an account just activated/,
    ],
  ])(
    "%s: the first check names the probe's path; the next stops without asking again",
    async (suite, env, path, check, profilePath, problem) => {
      const session = await openSuite({ suite, env: { [env]: `${url}${path}` } });
      try {
        asked = 0;
        const first = await session.run(check);
        expect(asked).toBe(1);
        expect(Object.values(first.requirements).every((o) => o === "errored")).toBe(true);
        const f = first.findings.find((x) => x.setup !== undefined)!;
        expect(f.code).toBe("IDC_SETUP");
        expect(f.setup).toMatchObject({ path: profilePath, foundBy: check });
        expect(f.setup!.problem).toMatch(/^the probe answered 403 /);
        expect(f.setup!.problem).toMatch(problem);
        // The same probe again: stopped at once by what the run learnt, the probe not asked.
        const again = await session.run(check);
        expect(asked).toBe(1);
        const g = again.findings.find((x) => x.setup !== undefined)!;
        expect(g.message).toMatch(/^setup: not run, stopped by the setup problem check .* found: /);
        expect(g.setup).toEqual(f.setup);
      } finally {
        expect(await session.close()).toEqual([]);
      }
    },
  );
});
