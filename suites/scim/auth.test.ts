import { registerSection } from "../../src/engine/register.js";
import { authChecks } from "./checks/auth.js";
import { authRequestChecks } from "./checks/auth-requests.js";

registerSection("scim", "specs/002 C Authentication (OAuth 2.0, RFC 7523 client assertions)", [
  ...authChecks,
  ...authRequestChecks,
]);
