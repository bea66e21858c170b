/** The poll-own-err-codes fault: the Receiver's own names for what RFC 8935 §2.4 calls otherwise. */
const OWN_CODES: Readonly<Record<string, string>> = {
  invalid_key: "invalid_signature",
  invalid_issuer: "unknown_issuer",
  invalid_audience: "wrong_audience",
};

/** The poll-own-err-codes fault's name for an RFC 8935 err (anything else is "invalid_claims"). */
export const ownErrCode = (err: string): string => OWN_CODES[err] ?? "invalid_claims";
