import { registerSection } from "../../src/engine/register.js";
import { userChecks } from "./checks/users.js";
import { errorChecks } from "./checks/errors.js";

registerSection("scim", "specs/002 C Endpoints and States: users", userChecks);
registerSection("scim", "specs/002 C Errors", errorChecks);
