import { registerSection } from "../../src/engine/register.js";
import { fetchListChecks } from "./checks/fetch-list.js";
import { unknownParamChecks } from "./checks/unknown-params.js";

registerSection("federation", "public-spec-facts §2 Fetch and List (the base endpoints)", [
  ...fetchListChecks,
  ...unknownParamChecks,
]);
