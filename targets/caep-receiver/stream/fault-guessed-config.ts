import { PUSH_METHOD } from "../ssf.js";
import type { TransmitterConfig } from "./discovery.js";

/** The stream-endpoint-guessed fault: a configuration assumed, not read (push, at <issuer>/ssf/stream). */
export const guessedConfig = (issuer: string): TransmitterConfig => ({
  jwksUri: "",
  configurationEndpoint: `${issuer}/ssf/stream`,
  verificationEndpoint: undefined,
  deliveryMethods: [PUSH_METHOD],
  criticalMembers: [],
});
