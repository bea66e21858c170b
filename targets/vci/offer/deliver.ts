import { LIMITS } from "../limits.js";

/**
 * Whether `url` may receive offers: only a loopback Wallet Credential Offer Endpoint
 * (`http://127.0.0.1:<port>` or `https://127.0.0.1:<port>`), so the hook cannot be turned
 * into a request forwarder to anywhere else.
 */
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

/**
 * Sends an offer to a Wallet Credential Offer Endpoint by HTTP GET `<url>?<query>` (specs/000
 * Endpoints: Wallet Credential Offer Endpoint). Redirects are not followed; the wallet's
 * body is discarded. Answers why delivery failed, or undefined when the wallet answered
 * a status below 400.
 */
export async function deliverOffer(url: URL, query: string): Promise<string | undefined> {
  const target = `${url.origin}${url.pathname}?${url.search ? `${url.search.slice(1)}&` : ""}${query}`;
  try {
    const res = await fetch(target, {
      redirect: "manual",
      signal: AbortSignal.timeout(LIMITS.offerDeliveryTimeoutMs),
    });
    await res.body?.cancel();
    return res.status < 400 ? undefined : `the wallet answered ${res.status}`;
  } catch (err) {
    return err instanceof Error && err.name === "TimeoutError"
      ? "the wallet did not answer in time"
      : "the wallet could not be reached";
  }
}
