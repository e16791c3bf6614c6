/** UUIDs, logging, assertions, host/env look-ups and IP helpers. */

import { isIP } from "../../../src/common/ip_address.ts";
import { K } from "../types.ts";
import { displayValue, encodeJson, vrlStrictEquals, type VrlTimestamp, type VrlValue } from "../value.ts";
import { fail, type FnDef, num, opt, req, str } from "./def.ts";
import { nowNs } from "./time.ts";
import { type Level, Logger } from "../../../src/common/log.ts";
import { ipFrom16, ipTo16 } from "./ip.ts";

/** The network of an IPv6 address under a `/n` prefix length or an IPv6 mask. */
function ipv6Subnet(value: string, subnet: string): string {
  if (isIP(value) !== 6) return fail("unable to parse IP address");
  const ip = ipTo16(value);
  let mask: Uint8Array;
  if (subnet.startsWith("/")) {
    const bits = Number(subnet.slice(1));
    if (!Number.isInteger(bits) || bits < 0 || bits > 128) return fail("unable to parse subnet");
    mask = new Uint8Array(16);
    for (let i = 0; i < 16; i++) mask[i] = 0xff & (0xff << Math.max(0, Math.min(8, (i + 1) * 8 - bits)));
  } else if (isIP(subnet) === 6) mask = ipTo16(subnet);
  else return fail("unable to parse subnet");
  return ipFrom16(ip.map((b, i) => b & mask[i]));
}

function uuidV7(ms: number): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  const t = BigInt(ms);
  for (let i = 0; i < 6; i++) b[i] = Number((t >> BigInt(8 * (5 - i))) & 0xffn);
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const vrlLogger = new Logger("petrel::vrl");

/** `log()`'s own sink: the JSON logger under target `petrel::vrl`, filtered by the log level. */
export const jsonVrlLogSink = (level: string, message: string): void => {
  vrlLogger.log(level as Level, message);
};

let vrlLogSink = jsonVrlLogSink;

/** Replaces the `log()` output sink (tests); returns the previous one. */
export function setVrlLogSink(
  sink: (level: string, message: string) => void,
): (level: string, message: string) => void {
  const old = vrlLogSink;
  vrlLogSink = sink;
  return old;
}

const lastLog = new Map<string, number>();

function ipv4ToInt(s: string): number | null {
  if (isIP(s) !== 4) return null;
  return s.split(".").reduce((a, o) => a * 256 + Number(o), 0);
}

function ipv6ToBig(s: string): bigint | null {
  if (isIP(s) !== 6) return null;
  let str6 = s;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(str6);
  if (v4) {
    const n = ipv4ToInt(v4[1])!;
    str6 = str6.slice(0, -v4[1].length) + ((n >>> 16) & 0xffff).toString(16) + ":" +
      (n & 0xffff).toString(16);
  }
  const [head, tail] = str6.split("::");
  const h = head ? head.split(":") : [];
  const t = tail !== undefined ? (tail ? tail.split(":") : []) : [];
  const groups = tail !== undefined ? [...h, ...new Array(8 - h.length - t.length).fill("0"), ...t] : h;
  return groups.reduce((a, g) => (a << 16n) | BigInt(parseInt(g || "0", 16)), 0n);
}

function cidrContains(cidr: string, ip: string): boolean {
  const [net, bitsS] = cidr.split("/");
  const bits = Number(bitsS);
  const n4 = ipv4ToInt(net), i4 = ipv4ToInt(ip);
  if (n4 !== null) {
    if (!Number.isInteger(bits) || bits < 0 || bits > 32) return fail(`unable to parse CIDR: ${cidr}`);
    if (i4 === null) return false;
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return ((n4 & mask) >>> 0) === ((i4 & mask) >>> 0);
  }
  const n6 = ipv6ToBig(net), i6 = ipv6ToBig(ip);
  if (n6 === null || !Number.isInteger(bits) || bits < 0 || bits > 128) {
    return fail(`unable to parse CIDR: ${cidr}`);
  }
  if (i6 === null) return false;
  const shift = BigInt(128 - bits);
  return n6 >> shift === i6 >> shift;
}

/** Miscellaneous functions by name. */
export const MISC_FNS: Record<string, FnDef> = {
  uuid_v4: { params: [], returns: K.BYTES, call: () => crypto.randomUUID() },
  uuid_v7: {
    params: [opt("timestamp", K.TIMESTAMP)],
    returns: K.BYTES,
    call: ([ts]) => uuidV7(ts ? (ts as VrlTimestamp).ms : Number(nowNs() / 1_000_000n)),
  },
  log: {
    params: [req("value", K.ANY), opt("level", K.BYTES), opt("rate_limit_secs", K.INTEGER)],
    returns: K.NULL,
    check: (a) => {
      const l = a[1]?.constant?.value;
      if (typeof l === "string" && !["trace", "debug", "info", "warn", "error"].includes(l)) {
        return `level must be one of trace, debug, info, warn, error`;
      }
    },
    call: ([v, level, rate]) => {
      // VRL logs `to_string_lossy`: collections as JSON, unlike `assert_eq`'s `Display`.
      const msg = typeof v === "string"
        ? v
        : v instanceof Map || Array.isArray(v)
        ? encodeJson(v)
        : displayValue(v!);
      const lvl = str(level, "info");
      const limit = num(rate, 1) * 1000;
      const key = lvl + msg;
      const now = Date.now();
      if (limit > 0 && (lastLog.get(key) ?? -Infinity) + limit > now) return null;
      if (lastLog.size > 10_000) lastLog.clear();
      lastLog.set(key, now);
      vrlLogSink(lvl, msg);
      return null;
    },
  },
  assert: {
    params: [req("condition", K.BOOLEAN), opt("message", K.BYTES)],
    returns: K.BOOLEAN,
    fallible: true,
    call: ([c, m]) => (c === true ? true : fail(m !== undefined ? (m as string) : "assertion failed")),
  },
  assert_eq: {
    params: [req("left", K.ANY), req("right", K.ANY), opt("message", K.BYTES)],
    returns: K.BOOLEAN,
    fallible: true,
    call: ([l, r, m]) =>
      vrlStrictEquals(l!, r!) ? true : fail(
        m !== undefined ? (m as string) : `assertion failed: ${displayValue(l!)} == ${displayValue(r!)}`,
      ),
  },
  get_hostname: {
    params: [],
    returns: K.BYTES,
    fallible: true,
    call: () => {
      try {
        return Deno.hostname();
      } catch (e) {
        return fail(`failed to get hostname: ${(e as Error).message}`);
      }
    },
  },
  get_env_var: {
    params: [req("name", K.BYTES)],
    returns: K.BYTES,
    fallible: true,
    call: ([n]) => {
      try {
        return Deno.env.get(n as string) ?? fail(`environment variable not found`);
      } catch (e) {
        return fail((e as Error).message);
      }
    },
  },
  is_ipv4: { params: [req("value", K.BYTES)], returns: K.BOOLEAN, call: ([v]) => isIP(v as string) === 4 },
  is_ipv6: { params: [req("value", K.BYTES)], returns: K.BOOLEAN, call: ([v]) => isIP(v as string) === 6 },
  ip_cidr_contains: {
    params: [req("cidr", K.BYTES | K.ARRAY), req("value", K.BYTES)],
    returns: K.BOOLEAN,
    fallible: true,
    call: ([c, v]) => {
      const cidrs = Array.isArray(c) ? c : [c!];
      return cidrs.some((x: VrlValue) => cidrContains(String(x), v as string));
    },
  },
  ip_aton: {
    params: [req("value", K.BYTES)],
    returns: K.INTEGER,
    fallible: true,
    call: ([v]) => {
      const n = ipv4ToInt(v as string);
      return n === null ? fail("unable to parse IP address: invalid IPv4 address syntax") : BigInt(n);
    },
  },
  ip_ntoa: {
    params: [req("value", K.INTEGER)],
    returns: K.BYTES,
    fallible: true,
    call: ([v]) => {
      const n = v as bigint;
      if (n < 0n || n > 0xffffffffn) return fail("cannot convert to bytes: integer does not fit in u32");
      const x = Number(n);
      return [x >>> 24, (x >>> 16) & 255, (x >>> 8) & 255, x & 255].join(".");
    },
  },
  ip_subnet: {
    params: [req("value", K.BYTES), req("subnet", K.BYTES)],
    returns: K.BYTES,
    fallible: true,
    call: ([v, s]) => {
      const ip = ipv4ToInt(v as string);
      if (ip === null) return ipv6Subnet(v as string, s as string);
      const sub = s as string;
      const bits = sub.startsWith("/") ? Number(sub.slice(1)) : undefined;
      // A prefix longer than the address is refused (JS shifts are mod 32: `/33` would mask as `/1`).
      if (bits !== undefined && !(/^\/\d+$/.test(sub) && bits <= 32)) return fail("unable to parse subnet");
      const mask = bits !== undefined
        ? (bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0)
        : ipv4ToInt(sub) ?? fail("unable to parse subnet");
      const x = (ip & mask) >>> 0;
      return [x >>> 24, (x >>> 16) & 255, (x >>> 8) & 255, x & 255].join(".");
    },
  },
};
