import type { TransmitterAnswer } from "./outbound.js";

// The delivery method URIs of the SSF drafts.
const DRAFT_METHOD = "https://schemas.openid.net/secevent/risc/delivery-method/";

/**
 * The stream-draft-uri-first fault: the stream is first created with a draft-era delivery
 * method URI, and with the RFC URN only when that is refused. `create` sends the request with
 * the method given; the answer is undefined when the Transmitter refused the draft URI.
 */
export async function draftFirst(
  create: (method: string) => Promise<TransmitterAnswer>,
  push: boolean,
): Promise<TransmitterAnswer | undefined> {
  const answer = await create(`${DRAFT_METHOD}${push ? "push" : "poll"}`);
  return answer.status >= 400 ? undefined : answer;
}
