import { LIMITS } from "../limits.js";

/**
 * Whether `url` may receive offers: only a loopback Wallet Credential Offer Endpoint
 * (`http://127.0.0.1:<port>` or `https://127.0.0.1:<port>`), so the hook cannot be turned
 * into a request forwarder to anywhere else.
 */
// Stryker disable all: the test hook's own guard on its deliver_to member, not protocol (the suite sends only the loopback endpoint of its mock wallet)
export function deliverableUrl(value: unknown): URL | undefined {
  if (typeof value !== "string" || value.length > 2048) return undefined;
  if (!/^https?:\/\/127\.0\.0\.1:\d+(\/|\?|$)/.test(value)) return undefined;
  try {
    const url = new URL(value);
    return url.hostname === "127.0.0.1" && url.port !== "" && url.username === "" && url.password === ""
      ? url
      : undefined;
  } catch {
    return undefined;
  }
}
// Stryker restore all

/**
 * Sends an offer to a Wallet Credential Offer Endpoint by HTTP GET `<url>?<query>` (specs/000
 * Endpoints: Wallet Credential Offer Endpoint). Redirects are not followed; the wallet's
 * body is discarded. Answers why delivery failed, or undefined when the wallet answered
 * a status below 400.
 */
export async function deliverOffer(url: URL, query: string): Promise<string | undefined> {
  // Stryker disable next-line StringLiteral,MethodExpression: keeps a query of the wallet's endpoint; the suite's Wallet Credential Offer Endpoint has none (an invocation carries exactly one query parameter, Endpoints: Wallet Credential Offer Endpoint)
  const own = url.search ? `${url.search.slice(1)}&` : "";
  const target = `${url.origin}${url.pathname}?${own}${query}`;
  try {
    // Stryker disable next-line ObjectLiteral: not following redirects and the time bound guard the hook against a hostile endpoint; a conforming wallet neither redirects nor stalls (it sends no response, Endpoints: Wallet Credential Offer Endpoint)
    const res = await fetch(target, {
      redirect: "manual",
      signal: AbortSignal.timeout(LIMITS.offerDeliveryTimeoutMs),
    });
    // Stryker disable next-line OptionalChaining: discards the wallet's answer, which has no content in the protocol (the Wallet sends no response, Endpoints: Wallet Credential Offer Endpoint); the suite's mock wallet always sends a body
    await res.body?.cancel();
    // Stryker disable next-line ConditionalExpression,EqualityOperator: what the hook does with the wallet's answer is the hook's report, not protocol (the Wallet sends no response, Endpoints: Wallet Credential Offer Endpoint)
    return res.status < 400 ? undefined : `the wallet answered ${res.status}`;
  } /* Stryker disable next-line all: the hook's report of an unreachable wallet */ catch (err) {
    // Stryker disable next-line all: the hook's report of an unreachable wallet, not protocol
    return err instanceof Error && err.name === "TimeoutError"
      ? "the wallet did not answer in time"
      : "the wallet could not be reached";
  }
}
