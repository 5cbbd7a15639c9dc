import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Why an address may not be called by a webhook, or undefined when it may: only public unicast
 * addresses may. Loopback, private (RFC 1918, ULA fc00::/7), link-local (169.254/16 with the cloud
 * metadata address, fe80::/10), unspecified, CGNAT (100.64/10), multicast, broadcast, reserved and
 * documentation ranges are refused, and so are IPv6 forms that carry an IPv4 address (IPv4-mapped
 * `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64, 6to4, Teredo): a mapped address is judged
 * as the IPv4 address it maps, the others are refused whole. Anything that does not parse is refused.
 */
export function forbiddenAddressReason(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, "");
  if (!isIP(bare) || bare.includes("%")) return "not an IP address";
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // IPv4-mapped IPv6 (::ffff:127.0.0.1) becomes the IPv4 address it maps.
    parsed = ipaddr.process(bare);
  } catch {
    return "not an IP address";
  }
  if (parsed.kind() === "ipv6") {
    const parts = (parsed as ipaddr.IPv6).parts;
    // ::a.b.c.d (IPv4-compatible, deprecated): the first 96 bits are zero.
    if (parts.slice(0, 6).every((part) => part === 0) && parsed.range() !== "loopback" && parsed.range() !== "unspecified") {
      return "an IPv4-compatible IPv6 address";
    }
  }
  const range = parsed.range();
  return range === "unicast" ? undefined : `a ${range} address`;
}

export type ResolvedTarget = { address: string; family: 4 | 6 };

/** A refused delivery: the address (or its name's) is not public, or the name does not resolve. */
export class AddressRefusedError extends Error {
  override name = "AddressRefusedError";
}

/**
 * The address a webhook's host is to be called at, checked: a literal IP as it is; a name resolved
 * (every address it has must be allowed, so that a name with a public and a private address cannot
 * be used to reach the private one), then the first of them. The caller connects to exactly that
 * address, so that a second lookup (DNS rebinding) cannot swap it.
 */
export async function resolveWebhookTarget(hostname: string, allowPrivate: boolean): Promise<ResolvedTarget> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(host);
  let addresses: { address: string; family: number }[];
  if (literal) {
    addresses = [{ address: host, family: literal }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch (error) {
      throw new AddressRefusedError(`Could not resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
    }
    if (!addresses.length) throw new AddressRefusedError(`Could not resolve ${host}`);
  }
  if (!allowPrivate) {
    for (const { address } of addresses) {
      const reason = forbiddenAddressReason(address);
      if (reason) throw new AddressRefusedError(`Refused: ${host} resolves to ${address}, ${reason} (WEBHOOK_ALLOW_PRIVATE is not set)`);
    }
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
