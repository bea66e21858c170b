import { registerSection } from "../../src/engine/register.js";
import { tokenChecks } from "./checks/token.js";

registerSection("commands", "specs/002 A Command Token and Authentication", tokenChecks);
