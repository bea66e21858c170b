import { registerSection } from "../../src/engine/register.js";
import { rateLimitChecks } from "./checks/rate-limit.js";

// Alone and after every other section (src/engine/runner.ts `schedule`): the burst may
// throttle the whole client, so nothing else runs beside it or right after it.
registerSection("scim", "specs/002 C Limits: rate limiting", rateLimitChecks);
