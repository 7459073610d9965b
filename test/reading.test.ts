import { expect, test } from "vitest";
import { createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { inboxOf } from "./support/inbox.ts";
import { rawMessage } from "./support/mail.ts";
import { served } from "./support/served.ts";

// What an agent reads of received mail besides its bodies, worked out when
// the poller files it from Dovecot, and the same over REST and GraphQL.

const { api, x, dovecot } = served({ imap: true });

/** Files the message as these bytes: a string is sent as Latin-1 when its charset says so. */
async function file(agent: TestAgent, raw: string, encoding: BufferEncoding = "utf8") {
  const before = (await api.get(`/agents/${agent.id}/emails?limit=1`, { key: agent.apiKey })).body.total as number;
  await dovecot.append(Buffer.from(`X-Original-To: ${agent.id}@mail.example\r\n${raw}`, encoding));
  return (await inboxOf(api, agent, before + 1)).body.data[0];
}

test("an HTML-only sign-up mail: text from its HTML, a preview, its links and its code", async () => {
  const agent = await createVerifiedAgent(api, x);
  const html = `<html><head><style>.x{color:red}</style></head><body>
    <table><tr><td><h1>Confirm your email</h1></td></tr>
    <tr><td>Your verification code is:</td></tr><tr><td><b>482913</b></td></tr>
    <tr><td>Or <a href="https://app.example/confirm?t=abc">confirm with one click</a>.
    <a href="mailto:help@app.example">Help</a> · <a href="https://app.example/privacy">Privacy</a></td></tr></table>
    <p>© 2026 App Inc.</p></body></html>`;
  const email = await file(
    agent,
    rawMessage({
      to: `${agent.id}@mail.example`,
      subject: "Confirm your email",
      contentType: "text/html; charset=utf-8",
      body: html,
    }),
  );
  expect(email.bodyText).toBeNull();
  expect(email.text).toContain("Your verification code is:");
  expect(email.text).toContain("confirm with one click (https://app.example/confirm?t=abc)");
  expect(email.text).not.toContain("color");
  expect(email.preview).toMatch(/^CONFIRM YOUR EMAIL Your verification code is: 482913 Or confirm with one click/);
  expect(email.links).toEqual([
    { url: "https://app.example/confirm?t=abc", text: "confirm with one click" },
    { url: "https://app.example/privacy", text: "Privacy" },
  ]);
  expect(email.codes).toEqual(["482913"]);
});

test("a Gmail reply in multipart/alternative: the reply without its quoted history", async () => {
  const agent = await createVerifiedAgent(api, x);
  const boundary = "b1";
  const body = [
    `--${boundary}`,
    "Content-Type: text/plain; charset=UTF-8",
    "",
    "Friday works for me.",
    "",
    "On Mon, Nov 23, 2026 at 10:00 AM Scout <scout@mail.example> wrote:",
    "> Shall we meet on Friday?",
    "> The code for the door is 4821.",
    `--${boundary}`,
    "Content-Type: text/html; charset=UTF-8",
    "",
    '<div dir="ltr">Friday works for me.</div><br><div class="gmail_quote">On Mon, Nov 23, 2026 at 10:00 AM Scout wrote:<blockquote>Shall we meet on Friday?</blockquote></div>',
    `--${boundary}--`,
  ].join("\r\n");
  const email = await file(
    agent,
    rawMessage({
      to: `${agent.id}@mail.example`,
      subject: "Re: Meeting",
      contentType: `multipart/alternative; boundary="${boundary}"`,
      body,
    }),
  );
  expect(email.text).toBe(email.bodyText);
  expect(email.replyText).toBe("Friday works for me.");
  expect(email.codes).toEqual(["4821"]);
});

test("a Latin-1 German mail: decoded text and its code; the same over GraphQL", async () => {
  const agent = await createVerifiedAgent(api, x);
  const body = Buffer.from("Ihr Bestätigungscode lautet: 583920\r\n\r\nMit freundlichen Grüßen", "latin1").toString(
    "latin1",
  );
  const email = await file(
    agent,
    rawMessage({
      to: `${agent.id}@mail.example`,
      subject: "=?ISO-8859-1?Q?Best=E4tigung?=",
      contentType: "text/plain; charset=ISO-8859-1",
      body,
    }),
    "latin1",
  );
  expect(email.subject).toBe("Bestätigung");
  expect(email.text).toContain("Ihr Bestätigungscode lautet: 583920");
  expect(email.codes).toEqual(["583920"]);
  const graphql = await api.graphql(
    `query($a: ID!, $e: ID!) { email(agentId: $a, emailId: $e) { text preview replyText links { url text } codes } }`,
    { a: agent.id, e: email.id },
    agent.apiKey,
  );
  const { text, preview, replyText, links, codes } = email;
  expect(graphql.body.data.email).toEqual({ text, preview, replyText, links, codes });
});
