import { expect, test } from "vitest";
import { messageReply } from "./intake.ts";

const answered = (...outcomes: Parameters<typeof messageReply>[0]) => {
  const { code, status } = messageReply(outcomes);
  return `${code} ${status}`;
};

test("SMTP's one answer: 250 when all kept it, the first refusal when none did, 4xx when a retry may keep it for the rest", () => {
  expect(answered("stored", "duplicate", "report")).toBe("250 2.0.0");
  expect(answered("over_quota", "sender_refused")).toBe("552 5.2.2");
  expect(answered("stored", "over_quota")).toBe("452 4.2.2");
  expect(answered("duplicate", "unknown_recipient")).toBe("451 4.3.0");
  // The agent's sender lists refusing it is final: nothing a retry changes.
  expect(answered("stored", "sender_refused")).toBe("250 2.0.0");
});
