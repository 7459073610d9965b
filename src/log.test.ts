import { describe, expect, test } from "vitest";
import { redacted } from "./log.ts";
import { testTable } from "./testing/table.ts";

describe("redacted", () => {
  testTable("%s", redacted, [
    [
      "imap://catchall%40example.com:s3cret@mail.example:993/INBOX",
      "imap://catchall%40example.com:[redacted]@mail.example:993/INBOX",
    ],
    [
      "connect to postgresql://app:p%40ss@db:5432/mail failed",
      "connect to postgresql://app:[redacted]@db:5432/mail failed",
    ],
    ["smtps://apikey:SG.abc.def@smtp.example", "smtps://apikey:[redacted]@smtp.example"],
    ["Authorization: Bearer ph_abcdefghijklmnopqrstuvwxyz", "Authorization: Bearer [redacted]"],
    ["key ph_abcdefghijklmnopqrstuvwxyz0123 was rotated", "key [redacted] was rotated"],
    ["link /verify/pv_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", "link /verify/[redacted]"],
    ["review /review/pr_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345/approve", "review /review/[redacted]/approve"],
    ["https://example.com/path?q=1", "https://example.com/path?q=1"],
    ["user@example.com wrote", "user@example.com wrote"],
  ]);

  test("fields named for a secret, at any depth; other values left as they are", () => {
    expect(
      redacted({ headers: { authorization: "x", accept: "*/*" }, apiKey: "k", count: 3, list: ["Bearer t"] }),
    ).toEqual({
      headers: { authorization: "[redacted]", accept: "*/*" },
      apiKey: "[redacted]",
      count: 3,
      list: ["Bearer [redacted]"],
    });
  });
});
