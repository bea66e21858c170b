import { registerSection } from "../../src/engine/register.js";
import { groupChecks } from "./checks/groups.js";

// One file: the /Groups walk must not run beside other checks that create groups.
registerSection("scim", "specs/002 C Endpoints: groups", groupChecks);
