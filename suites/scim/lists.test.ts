import { registerSection } from "../../src/engine/register.js";
import { paginationChecks } from "./checks/pagination.js";
import { lifecycleChecks } from "./checks/lifecycle.js";

registerSection("scim", "specs/002 C Endpoints: pagination (property-based)", paginationChecks);
registerSection("scim", "specs/002 C States: user lifecycle (model-based)", lifecycleChecks);
