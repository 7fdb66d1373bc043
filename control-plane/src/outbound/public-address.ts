/**
 * Which IP addresses the server may contact on a customer's behalf (logo and asset downloads,
 * `api.openapi` documents, outgoing webhooks, domain verification over HTTP): public unicast
 * only. Every spelling of an address is brought to one form before it is judged, and an IPv6
 * address that carries an IPv4 address is judged by the address it carries, or refused outright
 * when it cannot be judged, so `::127.0.0.1`, `::ffff:7f00:1`, `64:ff9b::7f00:1` and
 * `2002:7f00:1::` are all loopback.
 *
 * Refused, by the name `nonPublicRange` answers:
 * - IPv4 (ipaddr.js ranges): `unspecified` 0/8, `private` 10/8 172.16/12 192.168/16,
 *   `loopback` 127/8, `linkLocal` 169.254/16 (the cloud metadata address 169.254.169.254),
 *   `carrierGradeNat` 100.64/10, `reserved` (192.0.0/24, the documentation nets 192.0.2/24
 *   198.51.100/24 203.0.113/24, benchmarking 198.18/15, 240/4), `multicast`, `broadcast`, `as112`, `amt`.
 * - IPv6: `unspecified`, `loopback`, `linkLocal` fe80::/10, `uniqueLocal` fc00::/7 (the EC2
 *   metadata address fd00:ec2::254), `multicast`, documentation and other `reserved` blocks,
 *   `benchmarking` and every other special block ipaddr.js knows, `ipv4Compatible` ::/96
 *   (deprecated), `teredo` 2001::/32 (its client address is obfuscated and the relay is a
 *   third party), `nat64Local` 64:ff9b:1::/48 (an operator's own translator), `rfc6145`
 *   ::ffff:0:0:0/96, `scoped` (an address with a zone id), and `notGlobal`: anything outside
 *   2000::/3, the only block IANA hands out for global unicast.
 * - Judged as the IPv4 address they carry: IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96 and
 *   6to4 2002::/16 (bits 16-47).
 */
import ipaddr from 'ipaddr.js';

const cidr = (text: string) => ipaddr.parseCIDR(text) as [ipaddr.IPv6, number];
const V4_MAPPED = cidr('::ffff:0:0/96');
const V4_COMPATIBLE = cidr('::/96');
const NAT64 = cidr('64:ff9b::/96');
const NAT64_LOCAL = cidr('64:ff9b:1::/48');
const SIX_TO_FOUR = cidr('2002::/16');
const TEREDO = cidr('2001::/32');
const GLOBAL_UNICAST = cidr('2000::/3');

/** An IPv6 text whose last 32 bits are written as a dotted quad (`::127.0.0.1`, `::ffff:10.0.0.1`). */
const TRAILING_QUAD = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * The parsed address `text` names, or undefined when it is not an IP address. Accepts what a
 * host or a resolver may hand over: brackets, a trailing dot after an IPv4 literal, the short,
 * octal, hexadecimal and 32-bit decimal spellings of IPv4 (`127.1`, `0177.0.0.1`, `0x7f.1`,
 * `2130706433`). An address with a zone id (`fe80::1%eth0`) is none: see `nonPublicRange`.
 */
export function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  let s = text.trim().replace(/^\[(.*)\]$/, '$1');
  if (s.includes('%')) return undefined;
  if (!s.includes(':')) s = s.replace(/\.$/, '');
  // ipaddr.js reads `::a.b.c.d` as IPv4-mapped; the URL parser and the kernel read it as
  // IPv4-compatible (`::7f00:1`). Spell the quad in hex so both agree.
  const quad = TRAILING_QUAD.exec(s);
  if (quad) {
    const b = quad.slice(2).map(Number);
    if (b.some((x) => x > 255)) return undefined;
    s = `${quad[1]}${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`;
  }
  if (!ipaddr.isValid(s)) return undefined;
  try {
    return ipaddr.parse(s);
  } catch {
    return undefined;
  }
}

/** The one spelling of an address (`127.0.0.1`, `::7f00:1`), or undefined when it is none. */
export function canonicalAddress(text: string): string | undefined {
  return parseAddress(text)?.toString();
}

function v4Range(ip: ipaddr.IPv4): string | undefined {
  const range = ip.range();
  return range === 'unicast' ? undefined : range;
}

/** The IPv4 address in bytes `at`..`at + 3` of an IPv6 address. */
function embedded(ip: ipaddr.IPv6, at: number): ipaddr.IPv4 {
  return new ipaddr.IPv4(ip.toByteArray().slice(at, at + 4));
}

function v6Range(ip: ipaddr.IPv6): string | undefined {
  if (ip.match(V4_MAPPED) || ip.match(NAT64)) return v4Range(embedded(ip, 12));
  if (ip.match(SIX_TO_FOUR)) return v4Range(embedded(ip, 2));
  if (ip.match(NAT64_LOCAL)) return 'nat64Local';
  if (ip.match(TEREDO)) return 'teredo';
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.match(V4_COMPATIBLE)) return 'ipv4Compatible';
  return ip.match(GLOBAL_UNICAST) ? undefined : 'notGlobal';
}

/**
 * Why `address` may not be contacted (a range name from the module comment, or `invalid` when
 * it is not an IP address), or `undefined` when it is public unicast.
 */
export function nonPublicRange(address: string): string | undefined {
  if (address.includes('%')) return 'scoped';
  const ip = parseAddress(address);
  if (!ip) return 'invalid';
  return ip.kind() === 'ipv4' ? v4Range(ip as ipaddr.IPv4) : v6Range(ip as ipaddr.IPv6);
}
