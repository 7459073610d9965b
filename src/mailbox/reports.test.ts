import { describe, expect, test } from "vitest";
import { deliveryStatusOf, type ReportedRecipient, reportedAt, sentRecipientOf, suppresses } from "./reports.ts";

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
  test("another address: none, even when the email went to one address", () => {
    expect(
      sentRecipientOf(["pat@example.com"], reported({ finalRecipient: "pat.forward@elsewhere.example" })),
    ).toBeNull();
    expect(sentRecipientOf(sentTo, reported({ finalRecipient: "stranger@example.com" }))).toBeNull();
  });
});

test("a report's time is kept between the send and now", () => {
  const sentAt = new Date("2026-11-28T10:00:00Z");
  const now = new Date("2026-11-28T12:00:00Z");
  const at = (date: string | null) => reportedAt(date === null ? null : new Date(date), sentAt, now).toISOString();
  expect(at("2026-11-28T11:00:00Z")).toBe("2026-11-28T11:00:00.000Z");
  expect(at("9999-12-31T23:59:59Z")).toBe(now.toISOString());
  expect(at("2000-01-01T00:00:00Z")).toBe(sentAt.toISOString());
  expect(at(null)).toBe(now.toISOString());
});
