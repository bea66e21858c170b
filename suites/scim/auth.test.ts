import { registerSection } from "../../src/engine/register.js";
import { authChecks } from "./checks/auth.js";

registerSection("scim", "specs/002 C Authentication (OAuth 2.0, RFC 7523 client assertions)", authChecks);
