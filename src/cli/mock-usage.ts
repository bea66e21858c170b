import { HarnessError } from "../engine/errors.js";

/** Usage of `idconform mock`: serving a mock, or minting one token as the run's mocks sign them. */
export const MOCK_USAGE = `idconform mock <role> [--port n]
       idconform mock op --sign <claims.json> --profile <profile.yaml>
       idconform mock wallet --proof --profile <profile.yaml> [--aud <issuer>] [--nonce <c_nonce>] [--alg ES256|EdDSA]
       idconform mock transmitter [--port n] [--host h] [--public-url u] [--delivery push|poll] [--receiver-token <t|\${ENV}>]
       idconform mock transmitter --emit <event> --subject <format>:<value> --url <mock URL> --control-token <t>
       idconform mock receiver [--port n] [--host h] [--public-url u] [--issuer <transmitter issuer>] [--authorization <value|\${ENV}>]`;

/** A usage error of `idconform mock` (exit 2), with the usage lines. */
export const mockUsage = (message: string): HarnessError =>
  new HarnessError("IDC_USAGE", `${message}\n\nusage: ${MOCK_USAGE}`);
