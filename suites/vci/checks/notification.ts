import { defineCheck } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { VciProfile } from "../profile.js";
import { challengeKind, isError, isJsonType, noStore, refusalKind, said, Vci, type Ctx } from "../client.js";
import { stranger } from "../session.js";

/** A Bearer challenge anywhere in WWW-Authenticate (several challenges may be joined by commas). */
const BEARER = /(^|,)\s*bearer(\s|,|$)/i;

/** A fresh credential with its notification_id and access token, or a skip. */
async function issued(c: Ctx, v: Vci): Promise<{ token: string; notificationId: string }> {
  const o = await v.offer("preAuthorized");
  const [id] = await v.usableConfigurations(o);
  const conf = await v.configuration(id!);
  const { token, res } = await v.accessToken(o);
  const key = await v.keyFor(conf);
  const reply = await v.credential(token, { ...v.target(res, id!), proofs: { jwt: [await v.proof(key)] } });
  if (reply.res.status !== 200)
    c.skip(`the credential request answered ${said(reply.res)}: see VCI-CRED-ISSUE`, "dependency");
  const n = reply.body.notification_id;
  if (n === undefined)
    c.skip("the credential response has no notification_id, so nothing can be notified", "not-offered");
  // A notification_id that is no string is a malformed one, not an absent one: the Notification
  // Request's notification_id is a string (Resources: Notification Request body), so the Wallet
  // has nothing it may send; the malformed value is VCI-CRED-RESPONSE-SHAPE's failure.
  if (typeof n !== "string")
    c.skip(
      `the credential response's notification_id is ${quote(n, 60)}, not a string, so no notification can carry it: see VCI-CRED-RESPONSE-SHAPE`,
      "dependency",
    );
  return { token, notificationId: n };
}

/** specs/000 Endpoints: Notification Endpoint; Events; Errors; public §11. */
export const notificationChecks = [
  defineCheck<VciProfile>({
    id: "vci.notification",
    title:
      "valid notifications are answered 2xx (204 recommended; also one sent as Application/JSON), and an identical repeat again 2xx",
    requirements: ["VCI-NOTIF-OK", "VCI-NOTIF-204", "VCI-NOTIF-IDEMPOTENT"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const url = await v.endpoint("notification_endpoint");
      const { token, notificationId } = await issued(c, v);
      const auth = { authorization: `Bearer ${token}` };
      const send = (event: string, label: string, type = "application/json") =>
        c.http.post(url, {
          json: { notification_id: notificationId, event, event_description: "idconform test" },
          headers: { ...auth, "content-type": type },
          label,
        });
      const accepted = await send("credential_accepted", "credential_accepted");
      c.require("VCI-NOTIF-OK", accepted.status >= 200 && accepted.status < 300, {
        expected: "2xx",
        actual: said(accepted),
        res: accepted,
      });
      c.check("VCI-NOTIF-204", accepted.status === 204, {
        expected: "204 No Content",
        actual: said(accepted),
        res: accepted,
        kind: "wrong-status",
      });
      const repeat = await send("credential_accepted", "the same notification again");
      c.check("VCI-NOTIF-IDEMPOTENT", repeat.status >= 200 && repeat.status < 300, {
        expected: "2xx again",
        actual: said(repeat),
        res: repeat,
      });
      // RFC 9110 §8.3.1: media type and subtype are case-insensitive, so Application/JSON is application/json.
      for (const [event, type] of [
        ["credential_failure", "Application/JSON"],
        ["credential_deleted", "application/json"],
      ] as const) {
        const res = await send(event, `${event} (Content-Type ${type})`, type);
        c.check("VCI-NOTIF-OK", res.status >= 200 && res.status < 300, {
          expected: `2xx for ${event} sent as ${type}`,
          actual: said(res),
          res,
        });
      }
    },
  }),

  defineCheck<VciProfile>({
    id: "vci.notification.errors",
    title:
      "a notification with an unknown notification_id gives 400 invalid_notification_id (JSON, no-store), an unknown event, no event, no notification_id or a number as event_description invalid_notification_request (so does a body that is no JSON, or JSON null or an array), and no token or a token never issued 401 with a Bearer challenge",
    requirements: ["VCI-NOTIF-UNKNOWN", "VCI-NOTIF-BAD-REQUEST", "VCI-NOTIF-TOKEN"],
    async run(c: Ctx) {
      const v = new Vci(c);
      const url = await v.endpoint("notification_endpoint");
      const { token, notificationId } = await issued(c, v);
      const auth = { authorization: `Bearer ${token}` };
      const unknown = await c.http.post(url, {
        json: { notification_id: `idc-unknown-${c.runId.slice(-6)}`, event: "credential_accepted" },
        headers: auth,
        label: "an unknown notification_id",
      });
      c.check(
        "VCI-NOTIF-UNKNOWN",
        isError(unknown, 400, "invalid_notification_id") && isJsonType(unknown) && noStore(unknown),
        {
          expected: "400 application/json invalid_notification_id with Cache-Control: no-store",
          actual: `${said(unknown)}; Content-Type ${unknown.header("content-type") ?? "(none)"}; Cache-Control ${unknown.header("cache-control") ?? "(none)"}`,
          res: unknown,
          // The refusal first (a 2xx took the unknown id); then the headers of a right one.
          kind: !isError(unknown, 400, "invalid_notification_id")
            ? refusalKind(unknown)
            : !isJsonType(unknown)
              ? unknown.header("content-type") === undefined
                ? "missing"
                : "wrong-value"
              : unknown.header("cache-control") === undefined
                ? "missing"
                : "wrong-value",
        },
      );
      const badEvent = await c.http.post(url, {
        json: { notification_id: notificationId, event: "credential_misplaced" },
        headers: auth,
        label: "an event outside the defined values",
      });
      c.check("VCI-NOTIF-BAD-REQUEST", isError(badEvent, 400, "invalid_notification_request"), {
        expected: "400 invalid_notification_request",
        actual: said(badEvent),
        res: badEvent,
        kind: refusalKind(badEvent),
      });
      // public §11: notification_id and event are REQUIRED, event_description a string; a request
      // missing a required parameter or with a wrong value is invalid_notification_request.
      const malformed: [string, Record<string, unknown>][] = [
        ["a notification without event", { notification_id: notificationId }],
        ["a notification without notification_id", { event: "credential_accepted" }],
        [
          "a notification whose event_description is a number",
          { notification_id: notificationId, event: "credential_failure", event_description: 42 },
        ],
      ];
      for (const [label, json] of malformed) {
        const res = await c.http.post(url, { json, headers: auth, label });
        c.check("VCI-NOTIF-BAD-REQUEST", isError(res, 400, "invalid_notification_request"), {
          expected: `${label}: 400 invalid_notification_request`,
          actual: said(res),
          res,
          kind: refusalKind(res),
        });
      }
      const notJson = await c.http.post(url, {
        body: "idconform: not JSON",
        headers: { ...auth, "content-type": "application/json" },
        label: "a notification body that is not JSON",
      });
      c.check("VCI-NOTIF-BAD-REQUEST", isError(notJson, 400, "invalid_notification_request"), {
        expected: "a notification body that is not JSON: 400 invalid_notification_request (malformed)",
        actual: said(notJson),
        res: notJson,
        kind: refusalKind(notJson),
      });
      // A JSON value that is no object carries neither notification_id nor event.
      const notObject: [string, string][] = [
        ["a notification body that is JSON null", "null"],
        [
          "a notification body that is a JSON array holding the notification",
          JSON.stringify([{ notification_id: notificationId, event: "credential_accepted" }]),
        ],
      ];
      for (const [label, text] of notObject) {
        const res = await c.http.post(url, {
          body: text,
          headers: { ...auth, "content-type": "application/json" },
          label,
        });
        c.check("VCI-NOTIF-BAD-REQUEST", isError(res, 400, "invalid_notification_request"), {
          expected: `${label}: 400 invalid_notification_request (no notification_id or event)`,
          actual: said(res),
          res,
          kind: refusalKind(res),
        });
      }
      const noToken = await c.http.post(url, {
        json: { notification_id: notificationId, event: "credential_accepted" },
        label: "no access token",
      });
      const challenge = noToken.header("www-authenticate") ?? "";
      c.check("VCI-NOTIF-TOKEN", noToken.status === 401 && BEARER.test(challenge), {
        expected: "401 with WWW-Authenticate: Bearer",
        actual: `${said(noToken)}; WWW-Authenticate ${challenge || "(none)"}`,
        res: noToken,
        kind: challengeKind(noToken),
      });
      // specs/000 Errors: an invalid access token is answered per RFC 6750 §3 (401 invalid_token).
      const forged = stranger("idc");
      c.secret(forged, "UNKNOWN_ACCESS_TOKEN");
      const badToken = await c.http.post(url, {
        json: { notification_id: notificationId, event: "credential_accepted" },
        headers: { authorization: `Bearer ${forged}` },
        label: "an access token never issued",
      });
      const badChallenge = badToken.header("www-authenticate") ?? "";
      c.check("VCI-NOTIF-TOKEN", badToken.status === 401 && BEARER.test(badChallenge), {
        expected: "401 with WWW-Authenticate: Bearer for an access token never issued",
        actual: `${said(badToken)}; WWW-Authenticate ${badChallenge || "(none)"}`,
        res: badToken,
        kind: challengeKind(badToken),
      });
    },
  }),
];
