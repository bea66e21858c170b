import { registerSection } from "../../src/engine/register.js";
import { streamChecks } from "./checks/streams.js";

registerSection(
  "caep-transmitter",
  "SSF 1.0 §8.1.1: stream configuration (create, read, list, update, replace, delete)",
  streamChecks,
);
