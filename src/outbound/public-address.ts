import ipaddr from "ipaddr.js";

// Where the service may send a webhook: public unicast addresses only. No
// loopback, private, link-local, CGNAT (shared), multicast, reserved or
// metadata address, in IPv4 or IPv6, nor an IPv4 one wrapped in IPv6.

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === "unicast";
}
