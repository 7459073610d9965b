import { describe, expect, test } from "vitest";
import { isPublicAddress } from "./public-address.ts";

describe("isPublicAddress", () => {
  test.each(["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111"])("%s is public", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  test.each([
    ["127.0.0.1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local, cloud metadata"],
    ["100.64.0.1", "CGNAT"],
    ["224.0.0.1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["::1", "IPv6 loopback"],
    ["fe80::1", "IPv6 link-local"],
    ["fc00::1", "IPv6 unique local"],
    ["fd00:ec2::254", "IPv6 cloud metadata"],
    ["ff02::1", "IPv6 multicast"],
    ["::ffff:127.0.0.1", "IPv4 loopback inside IPv6"],
    ["::ffff:10.0.0.1", "IPv4 private inside IPv6"],
    ["::7f00:1", "IPv4-compatible loopback, as a URL writes [::127.0.0.1]"],
    ["::808:808", "IPv4-compatible, deprecated whatever it holds"],
    ["fec0::1", "IPv6 site-local, deprecated"],
    ["64:ff9b:1::a00:1", "local-use NAT64, here for 10.0.0.1"],
    ["100:0:0:1::1", "IPv6 dummy prefix"],
    ["3fff::1", "IPv6 documentation"],
    ["5f00::1", "SRv6 SID"],
    ["example.com", "not an address"],
  ])("%s is not (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});
