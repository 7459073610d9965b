import ipaddr from "ipaddr.js";

// Where the service may send a webhook: public unicast addresses only. No
// loopback, private, link-local, CGNAT (shared), multicast, reserved or
// metadata address, in IPv4 or IPv6, nor an IPv4 one wrapped in IPv6: mapped
// (::ffff:a.b.c.d) is judged as the IPv4 address it carries; the deprecated
// IPv4-compatible form (::a.b.c.d, the whole of ::/96) is never public.

const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/**
 * IPv6 blocks IANA's special-purpose registry marks not globally reachable that ipaddr.js 2.2 calls unicast: the
 * deprecated site-local fec0::/10 (RFC 3879), local-use NAT64 64:ff9b:1::/48 (RFC 8215, which may carry a private
 * IPv4 address), the dummy prefix 100:0:0:1::/64 (RFC 9780), documentation 3fff::/20 (RFC 9637) and SRv6 SIDs
 * 5f00::/16 (RFC 9602).
 */
const NOT_GLOBAL_V6 = ["fec0::/10", "64:ff9b:1::/48", "100:0:0:1::/64", "3fff::/20", "5f00::/16"].map((cidr) =>
  ipaddr.parseCIDR(cidr),
);

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.match(IPV4_COMPATIBLE) || NOT_GLOBAL_V6.some((block) => v6.match(block))) return false;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range() === "unicast";
}
