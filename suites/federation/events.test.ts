import { registerSection } from "../../src/engine/register.js";
import { eventsChecks } from "./checks/events.js";

registerSection("federation", "specs/001 Endpoints: Subordinate events", eventsChecks);
