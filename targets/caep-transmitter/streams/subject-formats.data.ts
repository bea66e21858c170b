/** Members of each simple subject identifier format (RFC 9493 §3, SSF 1.0 §3.4). */
export const SIMPLE_FORMATS: Readonly<Record<string, readonly string[]>> = {
  account: ["uri"],
  email: ["email"],
  iss_sub: ["iss", "sub"],
  opaque: ["id"],
  phone_number: ["phone_number"],
  did: ["url"],
  uri: ["uri"],
  jwt_id: ["iss", "jti"],
  saml_assertion_id: ["issuer", "assertion_id"],
};

/** Members a complex subject may name (SSF 1.0 §3.3). */
export const COMPLEX_MEMBERS: readonly string[] = [
  "user",
  "device",
  "session",
  "application",
  "tenant",
  "org_unit",
  "group",
];
