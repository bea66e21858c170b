import { registerSection } from "../../src/engine/register.js";
import { tokenChecks } from "./checks/token.js";
import { nonceChecks } from "./checks/nonce.js";

registerSection("vci", "specs/000 Token Endpoint and Nonce Endpoint", [...tokenChecks, ...nonceChecks]);
