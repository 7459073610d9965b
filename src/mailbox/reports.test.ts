import { describe, expect, test } from "vitest";
import { deliveryStatusOf, type ReportedRecipient, sentRecipientOf, suppresses } from "./reports.ts";

const reported = (fields: Partial<ReportedRecipient>): ReportedRecipient => ({
  finalRecipient: "pat@example.com",
  originalRecipient: null,
  status: "bounced",
  action: "failed",
  statusCode: "5.1.1",
  diagnosticCode: null,
  remoteMta: null,
  at: null,
  ...fields,
});

test("a sent email's status is the worst of its recipients', sent before any report", () => {
  expect(deliveryStatusOf([])).toBe("sent");
  expect(deliveryStatusOf(["delivered", "delayed"])).toBe("delayed");
  expect(deliveryStatusOf(["complained", "delivered"])).toBe("complained");
  expect(deliveryStatusOf(["delayed", "bounced", "complained"])).toBe("bounced");
});

test("a hard bounce (5.x.x) or a complaint suppresses; a delay or a 4.x.x failure does not", () => {
  expect(suppresses(reported({}))).toBe(true);
  expect(suppresses(reported({ status: "complained", statusCode: null }))).toBe(true);
  expect(suppresses(reported({ statusCode: "4.2.2" }))).toBe(false);
  expect(suppresses(reported({ statusCode: null }))).toBe(false);
  expect(suppresses(reported({ status: "delayed", statusCode: "5.0.0" }))).toBe(false);
});

describe("sentRecipientOf", () => {
  const sentTo = ["Pat@Example.com", "sam@example.com"];
  test("the sent address the original recipient names, else the final one, without case", () => {
    expect(sentRecipientOf(sentTo, reported({ finalRecipient: "pat@example.com" }))).toBe("Pat@Example.com");
    expect(
      sentRecipientOf(
        sentTo,
        reported({ originalRecipient: "SAM@example.com", finalRecipient: "sam.archive@example.com" }),
      ),
    ).toBe("sam@example.com");
  });
  test("another address: the only one the email went to, else none", () => {
    expect(sentRecipientOf(["pat@example.com"], reported({ finalRecipient: "pat.forward@elsewhere.example" }))).toBe(
      "pat@example.com",
    );
    expect(sentRecipientOf(sentTo, reported({ finalRecipient: "stranger@example.com" }))).toBeNull();
  });
});
