import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { StreamClient } from "../client.js";
import type { CaepTransmitterProfile } from "../profile.js";
import { body, said, methodsOf } from "./stream-util.js";

const STATUSES = ["enabled", "paused", "disabled"] as const;
/** Between two reads of a status change answered 202 (accepted, not yet decided). */
const READ_INTERVAL_MS = 100;

export const statusChecks = [
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.stream-status",
    title:
      "setting each of paused, disabled and enabled is answered 200 with that status (or 202), and reading the status then answers it (SSF 1.0 §8.1.2.1, §8.1.2.2)",
    requirements: ["CAEPT-STATUS"],
    async run(c) {
      const R = "CAEPT-STATUS";
      const k = new StreamClient(c);
      const [m] = await methodsOf(c, k);
      const s = await k.open(m, { label: "create stream" });
      try {
        const judgeRead = (res: HttpResponse, want?: string): boolean => {
          const b = body(res);
          const ok =
            res.status === 200 &&
            b.stream_id === s.id &&
            (STATUSES as readonly unknown[]).includes(b.status) &&
            (want === undefined || b.status === want);
          return c.check(R, ok, {
            message:
              res.status !== 200
                ? "reading the status is not answered 200"
                : want !== undefined && (STATUSES as readonly unknown[]).includes(b.status)
                  ? `the status read back is not the ${want} just set`
                  : "the status answer is not {stream_id, status} with a status of SSF",
            expected: `200 {stream_id: ${quote(s.id)}, status: ${want ?? "enabled, paused or disabled"}}`,
            actual:
              res.status === 200 ? `stream_id ${quote(b.stream_id)}, status ${quote(b.status)}` : said(res),
            res,
            kind: res.status !== 200 ? "wrong-status" : b.status === undefined ? "missing" : "wrong-value",
          });
        };
        judgeRead(await k.status(s.id, { label: "read status (new stream)" }));
        // Paused and disabled first, so each change is a change, then back to enabled.
        for (const want of ["paused", "disabled", "enabled"] as const) {
          const set = await k.setStatus(s.id, want, { reason: "idconform status check" });
          const b = body(set);
          c.check(R, set.status === 202 || (set.status === 200 && b.status === want), {
            message: `setting ${want} is not answered 200 with the updated status (nor 202)`,
            expected: `200 {stream_id, status: ${want}} (or 202)`,
            actual: set.status === 200 ? `status ${quote(b.status)}` : said(set),
            res: set,
            kind: set.status === 200 ? "wrong-value" : "wrong-status",
          });
          // A 202 leaves the decision for later: it is read until it shows or the bound passes.
          let read = await k.status(s.id, { label: `read status (after ${want})` });
          const deadline = Date.now() + c.profile.eventTimeoutMs;
          while (
            set.status === 202 &&
            body(read).status !== want &&
            Date.now() < deadline &&
            !c.signal.aborted
          ) {
            await new Promise((r) => setTimeout(r, READ_INTERVAL_MS));
            read = await k.status(s.id, { label: `read status (after ${want}, 202)` });
          }
          judgeRead(read, want);
        }
      } finally {
        await k.close(s);
      }
    },
  }),
  defineCheck<CaepTransmitterProfile>({
    id: "caep-transmitter.stream-subjects",
    title:
      "adding a subject to the Receiver's stream is answered 200 (or 204) and removing it 204 (SSF 1.0 §8.1.3.2, §8.1.3.3)",
    requirements: ["CAEPT-SUBJECT-ADD", "CAEPT-SUBJECT-REMOVE"],
    async run(c) {
      const k = new StreamClient(c);
      const [m] = await methodsOf(c, k);
      const s = await k.open(m, { label: "create stream" });
      try {
        const subjects = [k.subjects.fresh(), k.subjects.fresh()];
        for (const [i, subject] of subjects.entries()) {
          // One with verified (true), one without: "if omitted, ... SHOULD assume verified".
          const add = await k.addSubject(s.id, subject, {
            ...(i === 0 ? { verified: true } : {}),
            label: `add subject ${i + 1}`,
          });
          c.check("CAEPT-SUBJECT-ADD", add.status === 200 || add.status === 204, {
            expected: "200 (an empty success; 204 taken too)",
            actual: said(add),
            res: add,
            kind: "wrong-status",
          });
        }
        for (const [i, subject] of subjects.entries()) {
          const rm = await k.removeSubject(s.id, subject, { label: `remove subject ${i + 1}` });
          c.check("CAEPT-SUBJECT-REMOVE", rm.status === 204, {
            expected: "204 No Content",
            actual: said(rm),
            res: rm,
            kind: "wrong-status",
          });
        }
      } finally {
        await k.close(s);
      }
    },
  }),
];
