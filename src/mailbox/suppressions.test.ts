import { describe, expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { isPending } from "./drafts.ts";
import { listEmails } from "./emails.ts";
import { agentEvents } from "./events.ts";
import { sendEmail } from "./outbox.ts";
import type { AgentRecord, SentRecord } from "./records.ts";
import { getSent } from "./sending.ts";
import { listSuppressions, removeSuppression } from "./suppressions.ts";

// Delivery reports: believed when they come to a sent email's own return
// path from the empty reverse path; a hard bounce suppresses its recipient,
// and mail to a suppressed address is refused until the agent lifts it.

const memory = memoryOfFile();

const message = { to: ["pat@elsewhere.example"], subject: "Hello", text: "Hi." };

/** Sends the message; the sent record and the return path the provider was handed. */
async function sent(agent: AgentRecord): Promise<{ record: SentRecord; returnPath: string }> {
  const record = await memory.sendNow(agent, message);
  return { record, returnPath: memory.mailer.handed.at(-1)?.envelope.from ?? "" };
}

/** A hard bounce of the sent message for pat, as an MTA writes it (RFC 3464). */
const bounce = (to: string, messageId: string) =>
  [
    "From: MAILER-DAEMON@mx.elsewhere.example",
    `To: ${to}`,
    "Subject: Undelivered Mail Returned to Sender",
    "Date: Fri, 20 Nov 2026 10:00:00 +0000",
    "Message-ID: <bounce-1@mx.elsewhere.example>",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
    "",
    "--B",
    "Content-Type: text/plain",
    "",
    "Your message could not be delivered.",
    "--B",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.elsewhere.example",
    "",
    "Final-Recipient: rfc822; pat@elsewhere.example",
    "Action: failed",
    "Status: 5.1.1",
    "Diagnostic-Code: smtp; 550 5.1.1 User unknown",
    "",
    "--B",
    "Content-Type: text/rfc822-headers",
    "",
    `Message-ID: ${messageId}`,
    "",
    "--B--",
    "",
  ].join("\r\n");

describe("a hard bounce", () => {
  test("at the return path, from <>: recorded on the sent email, said in an event, its recipient suppressed", async () => {
    const agent = await memory.agent("bounced");
    const { record, returnPath } = await sent(agent);
    expect(returnPath).toMatch(/^bounces\+.+@agents\.example$/);
    const filed = await memory.receive(bounce(returnPath, record.messageId), [returnPath], "");
    expect(filed.map((f) => f.outcome)).toEqual(["report"]);
    expect((await getSent(memory.services, agent, record.id)).deliveryStatus).toBe("bounced");
    const events = (await agentEvents(memory.services, agent, { types: ["email.bounced"] })).data;
    expect(events).toMatchObject([{ data: { sentId: record.id, recipient: "pat@elsewhere.example" } }]);
    const suppressed = (await listSuppressions(memory.services, agent, {})).data;
    expect(suppressed).toMatchObject([{ address: "pat@elsewhere.example", reason: "bounced", statusCode: "5.1.1" }]);
    expect((await listEmails(memory.services, agent, {})).total).toBe(0);
  });

  test("mail to a suppressed address is refused before anything is taken, until the agent lifts it", async () => {
    const agent = await memory.agent("careful");
    const { record, returnPath } = await sent(agent);
    await memory.receive(bounce(returnPath, record.messageId), [returnPath], "");
    await expect(sendEmail(memory.services, agent, message)).rejects.toMatchObject({
      details: { code: "RECIPIENT_SUPPRESSED", recipients: ["pat@elsewhere.example"] },
    });
    await removeSuppression(memory.services, agent, "PAT@elsewhere.example");
    await expect(removeSuppression(memory.services, agent, "pat@elsewhere.example")).rejects.toMatchObject({
      kind: "NOT_FOUND",
    });
    expect(isPending(await sendEmail(memory.services, agent, message))).toBe(false);
  });
});

describe("a report that does not prove itself", () => {
  test("sent to the agent's own address, it is filed as mail saying why, and suppresses nothing", async () => {
    const agent = await memory.agent("doubter");
    const { record } = await sent(agent);
    const filed = await memory.receive(bounce("doubter@agents.example", record.messageId), ["doubter@agents.example"]);
    expect(filed.map((f) => f.outcome)).toEqual(["stored"]);
    const [email] = (await listEmails(memory.services, agent, {})).data;
    expect(email?.reportIgnored).toBe("not_at_return_path");
    expect((await listSuppressions(memory.services, agent, {})).total).toBe(0);
  });

  test("at the return path from a sender's own address, it is not believed", async () => {
    const agent = await memory.agent("sceptic");
    const { record, returnPath } = await sent(agent);
    const filed = await memory.receive(bounce(returnPath, record.messageId), [returnPath], "forger@evil.example");
    expect(filed.map((f) => f.outcome)).toEqual(["stored"]);
    expect((await listEmails(memory.services, agent, {})).data[0]?.reportIgnored).toBe("sender_not_empty");
    expect((await getSent(memory.services, agent, record.id)).deliveryStatus).toBe("sent");
  });
});
