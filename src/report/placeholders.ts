/**
 * What each `${NAME}` of a report stands for, and how a reader gets a fresh value to replay a
 * curl command. Names the harness gives are listed one by one (a unit test keeps the suites'
 * own names here); any other name is a value the profile read. Only commands that exist are
 * named: `idconform mock op --sign` mints a Command Token and `idconform mock wallet --proof` a
 * key proof (src/cli/serve-cmd.ts); no command mints a client assertion.
 */

/** What a placeholder stands for and how to get a fresh one. */
export interface Meaning {
  readonly means: string;
  readonly fresh: string;
}

const REPLAY_TOKEN =
  "replay the token request of the same check (its curl command, in results.json when the report does not show it) and take the member of that name from the response";
const FROM_RUN =
  "the run obtained it from the target; it is valid only for a while, so obtain another the same way";

/** Names the harness itself gives (the redactor's headers and members, the suites' own secrets). */
const KNOWN: Record<string, Meaning> = {
  AUTHORIZATION_CREDENTIALS: {
    means:
      "the credential of an Authorization header (the scheme before it stays visible): a bearer or DPoP access token, or Basic client credentials",
    fresh: `for a token, ${REPLAY_TOKEN} (access_token); for Basic, the client id and secret the profile configures`,
  },
  PROXY_AUTHORIZATION_CREDENTIALS: {
    means: "the credential of a Proxy-Authorization header",
    fresh: "the proxy credentials of your environment",
  },
  AUTHORIZATION: {
    means: "a whole Authorization header value (scheme and credential)",
    fresh: `${REPLAY_TOKEN} (access_token), and send it with its scheme`,
  },
  PROXY_AUTHORIZATION: {
    means: "a whole Proxy-Authorization header value",
    fresh: "the proxy credentials of your environment",
  },
  COOKIE: {
    means: "the Cookie header the run sent",
    fresh: "sign in to the target again and use its new cookie",
  },
  SET_COOKIE: { means: "a cookie the target set", fresh: "repeat the request that set it" },
  API_KEY: { means: "the X-API-Key header", fresh: "the API key the profile configures" },
  ACCESS_TOKEN: {
    means: "an access token the target's authorization server issued in this run",
    fresh: REPLAY_TOKEN,
  },
  OTHER_SCOPE_TOKEN: {
    means: "an access token obtained with a different scope, to show a request beyond its scope is refused",
    fresh: `${REPLAY_TOKEN} (access_token), with the other scope`,
  },
  UNKNOWN_ACCESS_TOKEN: {
    means: "a token the run made up that the target never issued (the check expects it refused)",
    fresh: "any random string of the same shape: it is meant to be unknown",
  },
  REFRESH_TOKEN: { means: "a refresh token the target issued", fresh: REPLAY_TOKEN },
  ID_TOKEN: { means: "an ID token the target issued", fresh: REPLAY_TOKEN },
  TOKEN: { means: "a token member (JSON or form) the redactor replaced", fresh: FROM_RUN },
  CLIENT_ASSERTION: {
    means:
      "a private_key_jwt client assertion the run signed with the profile's client key (iss and sub the client id, aud the token endpoint, a fresh jti and exp)",
    fresh:
      "no idconform command mints one on its own today: sign a JWT with those claims with the client key of the profile (auth.clientKey); its decoded header and claims are shown where the run received or sent it unredacted, else in results.json",
  },
  ASSERTION: {
    means: "an assertion grant (RFC 7521)",
    fresh: "sign a new one with the key the profile configures",
  },
  CLIENT_SECRET: { means: "the client secret", fresh: "the value the profile reads" },
  PASSWORD: { means: "a password", fresh: "the value the profile reads" },
  SECRET: { means: "a member named secret", fresh: "the value the profile reads" },
  PRIVATE_KEY: { means: "a private key member", fresh: "the key the profile reads" },
  SUBJECT_TOKEN: { means: "a token-exchange subject token", fresh: FROM_RUN },
  CODE: {
    means: "an authorization code (form or URL parameter code)",
    fresh: "run the authorization request again; a code is single-use and short-lived",
  },
  AUTHORIZATION_CODE: {
    means: "the authorization code the run's browser flow received at its redirect URI",
    fresh: "run the authorization request again (the browser flow); a code is single-use",
  },
  DEVICE_CODE: { means: "a device code", fresh: "start the device authorization again" },
  CODE_VERIFIER: {
    means: "the PKCE code_verifier the run generated for its authorization request",
    fresh:
      "it must match the code_challenge of the authorization request that gave the code: run that flow again",
  },
  PRE_AUTHORIZED_CODE: {
    means: "the pre-authorized code of the credential offer the issuer gave the run",
    fresh:
      "ask the issuer for a new credential offer (the offer request is among the run's exchanges); a code is single-use",
  },
  TX_CODE: {
    means: "the transaction code (PIN) of a pre-authorized offer",
    fresh: "the issuer sends it with a new credential offer",
  },
  TRANSACTION_ID: {
    means: "the transaction_id of a deferred credential the issuer returned",
    fresh: "request the credential again and take transaction_id from the response",
  },
  SIGNED_OFFER: {
    means: "a signed credential offer the issuer returned (it carries a pre-authorized code)",
    fresh: "request the offer again",
  },
  PROOF_WITH_PRIVATE_KEY: {
    means:
      "a key proof whose header jwk wrongly carries the private key (the check expects it refused); withheld whole so the key never shows",
    fresh:
      "idconform mock wallet --proof --profile <profile.yaml> --aud <issuer> --nonce <c_nonce> (a fresh c_nonce from the issuer's nonce endpoint) mints the proof the run's wallet signs, with a key made for it whose public JWK it prints; it never prints a private key, so this refused variant, whose jwk header also carries the private members, you sign yourself with a throwaway key",
  },
  BROWSER_INPUT: {
    means: "a user name, password or code the run typed into the issuer's login page",
    fresh: "the login values the profile configures",
  },
  OP_SIGNING_KEY: {
    means:
      "the OpenID Provider's private signing key (the profile's op.signingKey, or one the run generated)",
    fresh: "the profile's op.signingKey; a generated one lived only for the run",
  },
  COMMAND_TOKEN_SIGNATURE: {
    means:
      "the signature of an OpenID Provider Command Token: its header and claims are shown decoded beside the exchange, the signature is withheld because with it the token could be replayed",
    fresh:
      "put the decoded claims without jti, iat and exp in claims.json and run idconform mock op --sign claims.json --profile <profile.yaml>: it signs them as the run did (header typ, kid, alg) with the profile's op.signingKey, with a new jti, iat now and exp 60 s later (iss, aud, client_id and tenant from the profile where the file has none); send what it prints as the command_token form field. A key the run generated lived only for the run: the command then says so",
  },
  MINTED_TOKEN: { means: "a token the test fixture minted", fresh: "run the fixture check again" },
  TRANSMITTER_SIGNING_KEY: {
    means:
      "the mock Transmitter's private signing key (the profile's transmitter.signingKey, or one the run generated)",
    fresh: "the profile's transmitter.signingKey; a generated one lived only for the run",
  },
  ROTATED_SIGNING_KEY: {
    means: "the key the key-rotation check made and published at the mock Transmitter's jwks_uri",
    fresh: "it lived only for the run: run the key rotation check again",
  },
  ROTATED_SIGNING_KEY_D: {
    means: "the private member d of the key the key-rotation check made (the public members stay visible)",
    fresh: "it lived only for the run: run the key rotation check again",
  },
  SET_SIGNATURE: {
    means:
      "the signature of a Security Event Token the run signed: its header and claims are shown decoded beside the exchange, the signature is withheld because with it the SET could be replayed",
    fresh:
      "idconform mock transmitter --emit <event> --subject <format>:<value> makes a running mock Transmitter sign and deliver a fresh SET of that event with its key",
  },
  PUSH_AUTHORIZATION: {
    means:
      "the Authorization header value the Receiver asked the Transmitter to push with (its stream's authorization_header, or the profile's push.authorization)",
    fresh:
      "the Receiver's push authorization: the profile's push.authorization, or the one your Receiver gives when it creates its stream",
  },
  MOCK_CONTROL_TOKEN: {
    means: "the token that guards the control routes of the run's mock (harness-internal traffic)",
    fresh: "a mock prints its control token when started with idconform mock <role>",
  },
  RECEIVER_TOKEN: {
    means:
      "the Bearer token the profile's receiverToken gives idconform toward the Transmitter's stream management and poll endpoints",
    fresh: "export the variable the profile reads receiverToken from, with the value you ran with",
  },
  RECEIVER_TOKEN_NEAR_MISS: {
    means:
      "the profile's receiverToken with its last character changed or cut off (a probe the Transmitter must refuse)",
    fresh: "the profile's receiverToken, changed in its last character",
  },
  REDACTED: {
    means: "a secret JSON value that is not a string (an object or array), withheld whole",
    fresh: FROM_RUN,
  },
};

/** What `name` stands for; a name the harness does not give comes from the profile. */
export function placeholderMeaning(name: string): Meaning {
  const known = KNOWN[name];
  if (known) return known;
  const jwk = /^JWK_([A-Z]+)$/.exec(name);
  if (jwk)
    return {
      means: `the private member "${(jwk[1] ?? "").toLowerCase()}" of a JWK (withheld: it is part of a private key)`,
      fresh: "the key the profile configures (the public members stay visible)",
    };
  return {
    means: `a value of the profile: the environment variable ${name} it reads as \${${name}}, or a secret written inline under a member of that name`,
    fresh: `export ${name} with the value you ran with (or the profile's inline value)`,
  };
}
