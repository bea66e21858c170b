import { randomBytes, randomInt } from "node:crypto";
import type { CaepTransmitterProfile } from "./profile.js";

/** A subject identifier (RFC 9493): `format` and its members. */
export type SubId = Record<string, unknown> & { readonly format: string };

/**
 * Hands out subjects no other check of the run (nor another run) uses, in the profile's format
 * (`subjects.format`, `subjects.template` with `{n}`): `{n}` is the run tag, a per-worker counter
 * and a random part (digits only for phone numbers). Checks run in parallel workers, so the
 * counter alone would collide.
 */
export class Subjects {
  private n = 0;
  private readonly tag: string;

  constructor(
    runId: string,
    private readonly spec: CaepTransmitterProfile["subjects"],
  ) {
    this.tag = runId
      .slice(-4)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "x");
  }

  /** The value `{n}` stands for in one fresh subject. */
  private unique(): string {
    const n = ++this.n;
    if (this.spec.format === "phone_number") return `${randomInt(100_000, 999_999)}${n % 10}`;
    return `${this.tag}-${n}${randomBytes(3).toString("hex")}`;
  }

  fresh(): SubId {
    const v = this.spec.template.replaceAll("{n}", this.unique());
    switch (this.spec.format) {
      case "email":
        return { format: "email", email: v };
      case "opaque":
        return { format: "opaque", id: v };
      case "account":
        return { format: "account", uri: v };
      case "uri":
        return { format: "uri", uri: v };
      case "phone_number":
        return { format: "phone_number", phone_number: v };
    }
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Whether a SET's sub_id names `subject`: the same simple identifier, or a complex subject one of
 * whose members is it (SSF §3.3: the event applies to anything matching the combined claims).
 */
export function namesSubject(subId: unknown, subject: SubId): boolean {
  if (!isObject(subId)) return false;
  const same = (a: Record<string, unknown>): boolean =>
    Object.entries(subject).every(([k, v]) => a[k] === v) &&
    Object.keys(a).length === Object.keys(subject).length;
  if (same(subId)) return true;
  if (subId.format !== "complex") return false;
  return Object.values(subId).some((m) => isObject(m) && same(m));
}
