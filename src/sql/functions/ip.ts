/** GreptimeDB's IP address functions: IPv4 numbers, IPv6 bytes, CIDR prefixes and range checks. */
import { ipBytes, ipText, isIP } from "../../common/ip_address.ts";
import type { Arg, ScalarDef } from "./values.ts";
import { big, str } from "./values.ts";

function v4Bytes(v: Arg, fn: string): Uint8Array {
  if (typeof v === "bigint" || typeof v === "number") {
    const n = big(v)!;
    if (n < 0n || n > 0xffffffffn) {
      throw new Error(`${fn}: ${v} is not an IPv4 address number (0 to 4294967295)`);
    }
    return Uint8Array.from([24n, 16n, 8n, 0n].map((s) => Number((n >> s) & 0xffn)));
  }
  const text = str(v)!.trim();
  if (isIP(text) !== 4) throw new Error(`${fn}: invalid IPv4 address '${text}'`);
  return ipBytes(text);
}

function v6Bytes(v: Arg, fn: string): Uint8Array {
  if (v instanceof Uint8Array) {
    if (v.length === 16) return v;
    throw new Error(`${fn}: an IPv6 address in binary must be 16 bytes, got ${v.length}`);
  }
  const text = str(v)!.trim();
  // ipv6_num_to_string's input: the 16 bytes as 32 hex digits
  if (/^[0-9a-f]{32}$/i.test(text)) return Uint8Array.from(text.match(/../g)!.map((h) => parseInt(h, 16)));
  const version = isIP(text);
  if (version === 0) throw new Error(`${fn}: invalid IPv6 address '${text}'`);
  const b = ipBytes(text);
  if (b.length === 16) return b;
  const mapped = new Uint8Array(16);
  mapped[10] = mapped[11] = 0xff;
  mapped.set(b, 12);
  return mapped;
}

/** The bytes with every bit past `prefix` cleared. */
function masked(b: Uint8Array, prefix: number): Uint8Array {
  return b.map((x, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return x & (0xff << (8 - keep)) & 0xff;
  });
}

/** A prefix length argument, or (absent) the length that leaves out the trailing zero bytes. */
function prefixArg(p: Arg | undefined, b: Uint8Array, fn: string): number {
  if (p === undefined) {
    let n = b.length;
    while (n > 0 && b[n - 1] === 0) n--;
    return n * 8;
  }
  const n = Number(p);
  if (!Number.isInteger(n) || n < 0 || n > b.length * 8) {
    throw new Error(`${fn}: prefix length must be between 0 and ${b.length * 8}, got ${p}`);
  }
  return n;
}

function cidr(text: string, bytes: (v: Arg, fn: string) => Uint8Array, fn: string): [Uint8Array, number] {
  const slash = text.indexOf("/");
  if (slash < 0) throw new Error(`${fn}: invalid CIDR '${text}' (expected address/prefix)`);
  const net = bytes(text.slice(0, slash), fn);
  const bits = text.slice(slash + 1);
  if (!/^\d+$/.test(bits)) throw new Error(`${fn}: invalid CIDR prefix in '${text}'`);
  return [net, prefixArg(Number(bits), net, fn)];
}

function inRange(ip: Arg, range: Arg, bytes: (v: Arg, fn: string) => Uint8Array, fn: string): number | null {
  if (ip === null || range === null) return null;
  const [net, prefix] = cidr(str(range)!.trim(), bytes, fn);
  const a = masked(bytes(ip, fn), prefix), b = masked(net, prefix);
  return a.every((x, i) => x === b[i]) ? 1 : 0;
}

/** IP functions by name. */
export const IP_SCALARS: Record<string, ScalarDef> = {
  ipv4_num_to_string: {
    bigint: true,
    fn: (v) => {
      if (v === null) return null;
      if (typeof v !== "bigint" && typeof v !== "number") {
        throw new Error(`ipv4_num_to_string expects an IPv4 address number, got '${str(v)}'`);
      }
      return ipText(v4Bytes(v, "ipv4_num_to_string"));
    },
  },
  ipv4_string_to_num: {
    fn: (v) => {
      if (v === null) return null;
      const b = v4Bytes(str(v), "ipv4_string_to_num");
      return BigInt(((b[0] << 24) >>> 0) + (b[1] << 16) + (b[2] << 8) + b[3]);
    },
  },
  ipv4_to_cidr: {
    bigint: true,
    fn: (v, p) => {
      if (v === null || p === null) return null;
      const b = v4Bytes(v, "ipv4_to_cidr");
      const prefix = prefixArg(p, b, "ipv4_to_cidr");
      return `${ipText(masked(b, prefix))}/${prefix}`;
    },
  },
  ipv4_in_range: { int: true, fn: (ip, range) => inRange(ip, range, v4Bytes, "ipv4_in_range") },
  ipv6_num_to_string: {
    fn: (v) => (v === null ? null : ipText(v6Bytes(v, "ipv6_num_to_string"))),
  },
  ipv6_string_to_num: {
    fn: (v) => {
      if (v === null) return null;
      if (/^[0-9a-f]{32}$/i.test(str(v)!.trim())) {
        throw new Error(`ipv6_string_to_num: invalid IPv6 address '${v}'`);
      }
      return v6Bytes(str(v), "ipv6_string_to_num");
    },
  },
  ipv6_to_cidr: {
    fn: (v, p) => {
      if (v === null || p === null) return null;
      const b = v6Bytes(v, "ipv6_to_cidr");
      const prefix = prefixArg(p, b, "ipv6_to_cidr");
      return `${ipText(masked(b, prefix))}/${prefix}`;
    },
  },
  ipv6_in_range: { int: true, fn: (ip, range) => inRange(ip, range, v6Bytes, "ipv6_in_range") },
};
