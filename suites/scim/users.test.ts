import { registerSection } from "../../src/engine/register.js";
import { userChecks } from "./checks/users.js";
import { userPatchChecks } from "./checks/user-patch.js";
import { userValueChecks } from "./checks/user-values.js";
import { errorChecks } from "./checks/errors.js";

registerSection("scim", "specs/002 C Endpoints and States: users", [
  ...userChecks,
  ...userPatchChecks,
  ...userValueChecks,
]);
registerSection("scim", "specs/002 C Errors", errorChecks);
