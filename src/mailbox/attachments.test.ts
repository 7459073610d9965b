import { expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { attachmentContent, emailAttachments } from "./attachments.ts";
import { isPending } from "./drafts.ts";
import { getEmail, listEmails } from "./emails.ts";
import type { AgentRecord, EmailRecord } from "./records.ts";
import { forwardEmail, replyToEmail } from "./replies.ts";

// Attachments of received mail: read back byte for byte from the stored
// source, only by the agent that holds them, and sent on with a forward.
// Replies: to the sender, or with replyAll to everyone but the agent.

const memory = memoryOfFile();

const PDF = Buffer.from("%PDF-1.4 fake invoice bytes");

/** A message with a PDF attachment, sent to the agent with a colleague in Cc. */
async function receiveInvoice(agent: AgentRecord): Promise<EmailRecord> {
  const address = `${agent.id}@agents.example`;
  const raw = [
    "From: Jordan <jordan@sender.example>",
    `To: ${address}, pat@sender.example`,
    `Cc: sam@sender.example, ${address.toUpperCase()}`,
    "Subject: Invoice",
    "Date: Fri, 20 Nov 2026 09:00:00 +0000",
    `Message-ID: <invoice-${agent.id}@sender.example>`,
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="M"',
    "",
    "--M",
    "Content-Type: text/plain",
    "",
    "Please find the invoice attached.",
    "--M",
    'Content-Type: application/pdf; name="invoice.pdf"',
    'Content-Disposition: attachment; filename="invoice.pdf"',
    "Content-Transfer-Encoding: base64",
    "",
    PDF.toString("base64"),
    "--M--",
    "",
  ].join("\r\n");
  await memory.receive(raw, [address]);
  const [email] = (await listEmails(memory.services, agent, { limit: 1 })).data;
  if (!email) throw new Error("nothing was filed");
  return getEmail(memory.services, agent, email.id, { include: { attachments: true } });
}

const attachmentsOf = (email: EmailRecord) => (email as EmailRecord & { attachments: { id: string }[] }).attachments;

test("an attachment reads back byte for byte, and only for the agent that holds it", async () => {
  const agent = await memory.agent("holder");
  const email = await receiveInvoice(agent);
  const [attachment] = attachmentsOf(email);
  const part = await attachmentContent(memory.services, agent, email.id, attachment?.id ?? "");
  expect(part.record).toMatchObject({ filename: "invoice.pdf", contentType: "application/pdf", size: PDF.length });
  expect(part.content.equals(PDF)).toBe(true);
  const other = await memory.agent("snoop");
  await expect(attachmentContent(memory.services, other, email.id, attachment?.id ?? "")).rejects.toMatchObject({
    kind: "NOT_FOUND",
  });
});

test("every attachment of an email from one reading, in order; 404 for another agent's email", async () => {
  const agent = await memory.agent("reader");
  const email = await receiveInvoice(agent);
  const parts = await emailAttachments(memory.services, agent, email.id);
  expect(parts.map(({ record }) => record.id)).toEqual(attachmentsOf(email).map(({ id }) => id));
  expect(parts[0]?.content.equals(PDF)).toBe(true);
  const other = await memory.agent("outsider");
  await expect(emailAttachments(memory.services, other, email.id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
});

test("a forward carries the original's attachments and quotes it", async () => {
  const agent = await memory.agent("forwarder");
  const email = await receiveInvoice(agent);
  const forward = await forwardEmail(memory.services, agent, email.id, { to: ["boss@elsewhere.example"], text: "FYI" });
  if (isPending(forward)) throw new Error("the forward waits");
  const raw = memory.mailer.handed.at(-1)?.raw ?? "";
  expect(raw).toMatch(/Content-Disposition: attachment; filename="?invoice\.pdf/);
  expect(raw).toContain(PDF.toString("base64"));
  expect(raw).toContain("---------- Forwarded message ---------");
  await expect(
    forwardEmail(memory.services, agent, "missing", { to: ["boss@elsewhere.example"] }),
  ).rejects.toMatchObject({ kind: "NOT_FOUND" });
});

test("a reply goes to the sender; replyAll to everyone named but the agent", async () => {
  const agent = await memory.agent("answerer");
  const email = await receiveInvoice(agent);
  await replyToEmail(memory.services, agent, email.id, { text: "Thanks." });
  expect(memory.mailer.handed.at(-1)?.envelope.to).toEqual(["jordan@sender.example"]);
  await replyToEmail(memory.services, agent, email.id, { text: "Thanks all.", replyAll: true });
  expect(memory.mailer.handed.at(-1)?.envelope.to).toEqual([
    "jordan@sender.example",
    "pat@sender.example",
    "sam@sender.example",
  ]);
  expect(memory.mailer.handed.at(-1)?.raw).toMatch(/^In-Reply-To: <invoice-answerer@sender\.example>/m);
});
