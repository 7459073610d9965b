import { describe, expect, test } from "vitest";
import { containsCode, mentions, parsePostUrl } from "./posts.ts";

describe("parsePostUrl", () => {
  test.each([
    ["https://x.com/Someone/status/1234567890", "Someone"],
    ["https://twitter.com/some_one/status/1", "some_one"],
    ["https://www.x.com/a/status/42/", "a"],
    ["https://mobile.twitter.com/a/status/42?s=20", "a"],
  ])("%s is a post by %s, looked up on its canonical URL", (input, user) => {
    const post = parsePostUrl(input);
    expect(post?.user).toBe(user);
    expect(post?.canonical).toMatch(new RegExp(`^https://twitter\\.com/${user}/status/\\d+$`));
  });

  test.each([
    "http://x.com/a/status/1",
    "https://x.com:8443/a/status/1",
    "https://user:pass@x.com/a/status/1",
    "https://evil.example/a/status/1",
    "https://x.com.evil.example/a/status/1",
    "https://x.com/a/statuses/1",
    "https://x.com/a/status/abc",
    "https://x.com/this_name_is_far_too_long/status/1",
    "not a url",
  ])("%s is refused", (input) => {
    expect(parsePostUrl(input)).toBeNull();
  });
});

describe("mentions and containsCode", () => {
  test("the whole handle, in any case", () => {
    expect(mentions("Hello @PigeonHole!", "pigeonhole")).toBe(true);
    expect(mentions("Hello @pigeonholes", "pigeonhole")).toBe(false);
    expect(mentions("mail@pigeonhole", "pigeonhole")).toBe(false);
  });

  test("the code as a word of its own", () => {
    expect(containsCode("my code: pigeon-7kq2zd.", "PIGEON-7KQ2ZD")).toBe(true);
    expect(containsCode("PIGEON-7KQ2ZDX", "PIGEON-7KQ2ZD")).toBe(false);
  });
});
