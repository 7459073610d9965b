import ipaddr from "ipaddr.js";

// Where the service may send a webhook: public unicast addresses only. No
// loopback, private, link-local, CGNAT (shared), multicast, reserved or
// metadata address, in IPv4 or IPv6, nor an IPv4 one wrapped in IPv6: mapped
// (::ffff:a.b.c.d) is judged as the IPv4 address it carries; the deprecated
// IPv4-compatible form (::a.b.c.d, the whole of ::/96) is never public.

const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.match(IPV4_COMPATIBLE)) return false;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range() === "unicast";
}
