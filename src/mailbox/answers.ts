import type { Outgoing } from "./outgoing.ts";
import { addressesOf, type EmailRecord } from "./records.ts";
import { trimReferences } from "./threads.ts";

// An answer to a received email: who it goes to, and how it is threaded. A
// reply sent now and a reply draft sent later are made the same way.

/** The original's Reply-To, else its sender; with reply-all, its To and Cc too, without the agent and without repeats. */
export function replyRecipients(original: EmailRecord, own: string, replyAll: boolean): { to: string[]; cc: string[] } {
  const replyTo = addressesOf(original.replyToList);
  const to = replyTo.length > 0 ? replyTo : [original.fromAddress];
  const seen = new Set([own.toLowerCase(), ...to.map((a) => a.toLowerCase())]);
  const cc: string[] = [];
  if (replyAll) {
    for (const address of [...addressesOf(original.toList), ...addressesOf(original.ccList)]) {
      if (seen.has(address.toLowerCase())) continue;
      seen.add(address.toLowerCase());
      cc.push(address);
    }
  }
  return { to, cc };
}

/** How a message answering `original` is threaded: its In-Reply-To, References and thread. */
export function answering(original: EmailRecord): Pick<Outgoing, "inReplyTo" | "references" | "threadId"> {
  const parent = original.messageId?.match(/<[^<>\s]+>/)?.[0] ?? null;
  const before = original.references?.split(" ") ?? [];
  return {
    inReplyTo: parent,
    references: parent === null ? before : trimReferences([...before, parent]),
    threadId: original.threadId,
  };
}
