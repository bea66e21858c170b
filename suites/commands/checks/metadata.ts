import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { CommandsProfile } from "../profile.js";
import { body, CommandClient, said } from "../client.js";

/** A plain metadata command must succeed first, or a refusal of the variant proves nothing. */
async function baseline(c: CheckContext<CommandsProfile>, k: CommandClient): Promise<void> {
  const res = await k.metadata(k.tenantFor("tokens"), undefined, {}, { label: "valid metadata (baseline)" });
  if (res.status !== 200)
    c.skip(`a valid metadata command answered ${said(res)}: see CMD-METADATA-SUPPORTED`, "dependency");
}

/** specs/002 area A: the Metadata Command and the Metadata Response. */
export const metadataChecks = [
  defineCheck<CommandsProfile>({
    id: "commands.metadata",
    title:
      "the metadata command answers 200 with a Metadata Response: context, commands_supported with metadata, command_endpoint, client_id",
    requirements: [
      "CMD-METADATA-SUPPORTED",
      "CMD-METADATA-CONTEXT",
      "CMD-METADATA-COMMANDS",
      "CMD-METADATA-ENDPOINT",
      "CMD-METADATA-CLIENT-ID",
      "CMD-METADATA-MEMBERS",
    ],
    async run(c) {
      const k = new CommandClient(c);
      const res = await k.metadata(k.tenant);
      c.require(
        "CMD-METADATA-SUPPORTED",
        res.status === 200 && res.json !== null && typeof res.json === "object",
        {
          expected: "200 with a JSON object",
          actual: said(res),
          kind: res.status !== 200 ? "wrong-status" : "malformed",
        },
      );
      const m = body(res);
      const ctx = m.context as { iss?: unknown; tenant?: unknown } | undefined;
      c.check("CMD-METADATA-CONTEXT", ctx?.iss === k.base.iss && ctx?.tenant === k.tenant, {
        expected: `context {iss: ${k.base.iss}, tenant: ${k.tenant}}`,
        actual: quote(m.context ?? null),
        kind:
          m.context !== undefined && m.context !== null && typeof m.context !== "object"
            ? "malformed"
            : ctx?.iss === undefined || ctx.tenant === undefined
              ? "missing"
              : "wrong-value",
      });
      const list = m.commands_supported;
      c.check(
        "CMD-METADATA-COMMANDS",
        Array.isArray(list) && list.every((x) => typeof x === "string") && list.includes("metadata"),
        {
          expected: "commands_supported: an array of names including metadata",
          actual: quote(list ?? null),
          kind:
            list === undefined
              ? "missing"
              : !Array.isArray(list) || !list.every((x) => typeof x === "string")
                ? "malformed"
                : "wrong-value",
        },
      );
      c.check("CMD-METADATA-ENDPOINT", m.command_endpoint === c.profile.baseUrl, {
        expected: `command_endpoint ${c.profile.baseUrl}`,
        actual: quote(m.command_endpoint ?? null),
      });
      c.check("CMD-METADATA-CLIENT-ID", m.client_id === c.profile.clientId, {
        expected: `client_id ${c.profile.clientId}`,
        actual: quote(m.client_id ?? null),
      });
      const problems: string[] = [];
      // A role object without its id or display lacks a required member; any other problem is
      // a member not of its type (or role ids repeated).
      let roleLacks = false;
      if (m.aud_sub_required !== undefined && typeof m.aud_sub_required !== "boolean")
        problems.push("aud_sub_required is not a boolean");
      if (m.roles !== undefined) {
        const ok =
          Array.isArray(m.roles) &&
          m.roles.every((r: unknown) => {
            const o = r as { id?: unknown; display?: unknown; description?: unknown } | null;
            return (
              o !== null &&
              typeof o === "object" &&
              typeof o.id === "string" &&
              typeof o.display === "string" &&
              (o.description === undefined || typeof o.description === "string")
            );
          });
        if (!ok) {
          problems.push("roles is not an array of {id, display, description?} strings");
          roleLacks =
            Array.isArray(m.roles) &&
            m.roles.some((r: unknown) => {
              const o = r as { id?: unknown; display?: unknown } | null;
              return o !== null && typeof o === "object" && (o.id === undefined || o.display === undefined);
            });
        } else if (
          new Set((m.roles as { id: string }[]).map((r) => r.id)).size !== (m.roles as unknown[]).length
        )
          problems.push("role ids are not unique");
      }
      if (m.jwks_uri !== undefined && (typeof m.jwks_uri !== "string" || !URL.canParse(m.jwks_uri)))
        problems.push("jwks_uri is not a URL");
      c.check("CMD-METADATA-MEMBERS", problems.length === 0, {
        expected: "optional members of their types",
        actual: problems.join("; "),
        kind: roleLacks
          ? "missing"
          : problems.some((x) => x !== "role ids are not unique")
            ? "malformed"
            : "wrong-value",
      });
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.metadata-unknown-fields",
    title: "a metadata claim with fields the RP does not know is accepted (unknown fields are ignored)",
    requirements: ["CMD-METADATA-IGNORE-UNKNOWN"],
    async run(c) {
      const k = new CommandClient(c);
      await baseline(c, k);
      const res = await k.metadata(
        k.tenantFor("tokens"),
        undefined,
        { idc_unknown_field: { nested: [1, 2] }, issuer: k.base.iss, token_endpoint: `${k.base.iss}/token` },
        { label: "metadata with unknown fields" },
      );
      c.check("CMD-METADATA-IGNORE-UNKNOWN", res.status === 200, {
        expected: "200: unknown metadata fields ignored",
        actual: said(res),
        kind: "wrong-status",
      });
    },
  }),
  defineCheck<CommandsProfile>({
    id: "commands.unknown-parameters",
    title: "form parameters the RP does not understand, beside command_token, are ignored",
    requirements: ["CMD-REQUEST-IGNORE-UNKNOWN"],
    async run(c) {
      const k = new CommandClient(c);
      await baseline(c, k);
      // Parameters of no protocol, and those of OpenID Connect's login initiated by a third
      // party (Core §4: iss, login_hint, target_link_uri), which an RP that shares its login
      // route with the Command Endpoint may take for the start of a login: ignored all the same.
      const forms: [string, Record<string, string>][] = [
        ["unknown form parameters", { idc_unknown: "1", state: "ignored", command: "delete" }],
        [
          "iss, login_hint and target_link_uri form parameters",
          { iss: k.base.iss, login_hint: k.sub("hint"), target_link_uri: c.profile.baseUrl },
        ],
      ];
      for (const [what, form] of forms) {
        const { res } = await k.send("metadata", {
          tenant: k.tenantFor("tokens"),
          claims: { metadata: {} },
          form,
          label: `metadata with ${what}`,
        });
        const location = res.headers.location;
        c.check("CMD-REQUEST-IGNORE-UNKNOWN", res.status === 200, {
          message: `metadata with ${what}: the parameters were not ignored`,
          expected: `metadata with ${what}: 200, the parameters ignored`,
          actual: `${said(res)}${typeof location === "string" ? ` redirecting to ${location.split(/[?#]/)[0]?.slice(0, 200) ?? ""}` : ""}`,
          res,
          kind: "wrong-status",
        });
      }
    },
  }),
];
