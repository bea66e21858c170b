/**
 * Variants of the demo credential issuance profile shared by the e2e variant tests and the
 * mutation test, so both exercise the same setting.
 */

/**
 * Offers delivered to the mock wallet's Credential Offer Endpoint (`offers.trigger.delivery:
 * wallet`): every kind's hook body names the wallet's endpoint, and the reference issuer sends
 * the invocation there instead of answering it.
 */
export function walletDelivery(demoYaml: string): string {
  const yaml = demoYaml
    .replace("        kinds:\n", "        delivery: wallet\n        kinds:\n")
    .replace(
      /^(          (preAuthorized|txCode|byValue|deferred|authorizationCode):\n(?:            .*\n)+)/gm,
      '$1            deliver_to: "{walletOfferEndpoint}"\n',
    );
  const kinds = yaml.match(/deliver_to/g)?.length ?? 0;
  if (kinds !== 5)
    throw new Error(`the demo vci profile changed: ${kinds} offer kinds got deliver_to, not 5`);
  return yaml;
}

/**
 * Every offer by value: each kind's hook body asks the reference issuer for `by_reference:
 * false` (an issuer that never serves offers by reference is conforming).
 */
export function offersByValue(demoYaml: string): string {
  const yaml = demoYaml.replace(
    /^(          (preAuthorized|txCode|deferred|authorizationCode):\n(?:            .*\n)+)/gm,
    "$1            by_reference: false\n",
  );
  const kinds = yaml.match(/by_reference: false/g)?.length ?? 0;
  if (kinds !== 5) throw new Error(`the demo vci profile changed: ${kinds} offer kinds by value, not 5`);
  return yaml;
}
