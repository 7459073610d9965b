import { expect, test } from "vitest";
import { SENT_ANSWER } from "./sending.ts";

const sent = {
  id: "s1",
  agentId: "scout",
  toList: ["pat@example.com", "sam@example.com"],
  ccList: ["cc@example.com"],
  bccList: [],
  subject: "Hello",
  bodyText: "Hi",
  bodyHtml: null,
  replyTo: null,
  messageId: "<m1@mail.example>",
  providerId: "q1",
  size: 120,
  sentAt: new Date(1_764_000_000_000),
  inReplyTo: null,
  references: null,
  threadId: "t1",
  deliveryStatus: "sent",
};

test("a kept answer comes back as it was given", () => {
  expect(SENT_ANSWER.decode(JSON.parse(JSON.stringify(SENT_ANSWER.encode(sent))))).toEqual(sent);
});

test("an answer kept before recipients were lists comes back with lists", () => {
  const { toList: _to, ccList: _cc, bccList: _bcc, ...rest } = sent;
  const old = {
    ...rest,
    sentAt: sent.sentAt.getTime(),
    to: "pat@example.com, sam@example.com",
    cc: "cc@example.com",
    bcc: null,
  };
  expect(SENT_ANSWER.decode(old)).toEqual(sent);
});
