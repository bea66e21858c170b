import { registerSection } from "../../src/engine/register.js";
import { tokenChecks } from "./checks/token.js";
import { accountTokenChecks } from "./checks/token-account.js";

registerSection("commands", "specs/002 A Command Token and Authentication", [
  ...tokenChecks,
  ...accountTokenChecks,
]);
