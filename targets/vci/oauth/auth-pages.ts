import {
  CLAIM_DISPLAY,
  CONFIGURATION_DISPLAY,
  type ClaimName,
  type ConfigurationId,
} from "../configurations.js";

const escape = (s: string): string => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const page = (title: string, body: string): string =>
  // Stryker disable next-line StringLiteral: the page's head and style are for the person; the browser flow needs only the forms
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>` +
  // Stryker disable next-line StringLiteral: see the line above
  `<style>body{font-family:sans-serif;max-width:32rem;margin:2rem auto}label{display:block;margin:.5rem 0}` +
  `.error{color:#a00}</style></head><body><h1>${escape(title)}</h1>${body}</body></html>`;

/** Where the login and consent forms post back. */
const hidden = (action: string, pending: string): string =>
  `<form method="post" action="${escape(action)}"><input type="hidden" name="pending" value="${escape(pending)}">`;

/** The login page of a pending authorization (`input#username`, `input#password`, `button#login`). */
export function loginPage(action: string, pending: string, error?: string): string {
  return page(
    "Sign in to the idconform demo issuer",
    `${error !== undefined ? `<p class="error" id="error">${escape(error)}</p>` : ""}${hidden(action, pending)}` +
      `<label>User name <input id="username" name="username" autocomplete="username" required></label>` +
      `<label>Password <input id="password" name="password" type="password" autocomplete="current-password" required></label>` +
      `<button id="login" name="decision" value="login" type="submit">Sign in</button></form>`,
  );
}

/**
 * The consent page: the claims each requested credential discloses, from the issuer metadata
 * (specs/000: the Authorization Server renders consent from the metadata's claims).
 */
export function consentPage(
  action: string,
  pending: string,
  configurationIds: readonly ConfigurationId[],
): string {
  const claims = (Object.keys(CLAIM_DISPLAY) as ClaimName[])
    .map((n) => `<li data-claim="${n}">${escape(CLAIM_DISPLAY[n].en)}</li>`)
    .join("");
  const credentials = configurationIds
    .map(
      (id) =>
        `<section data-configuration="${id}"><h2>${escape(CONFIGURATION_DISPLAY[id].en)}</h2><ul>${claims}</ul></section>`,
    )
    .join("");
  return page(
    "Share your identity credential",
    `<p>The wallet asks for these credentials:</p>${credentials}${hidden(action, pending)}` +
      `<button id="consent" name="decision" value="consent" type="submit">Allow</button> ` +
      `<button id="deny" name="decision" value="deny" type="submit">Deny</button></form>`,
  );
}

/** An authorization request that cannot be answered by redirect. */
export const errorPage = (message: string): string =>
  page("Authorization failed", `<p class="error" id="error">${escape(message)}</p>`);
