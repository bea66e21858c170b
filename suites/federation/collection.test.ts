import { registerSection } from "../../src/engine/register.js";
import { collectionChecks } from "./checks/collection.js";

registerSection("federation", "specs/001 Endpoints: Entity collection", collectionChecks);
