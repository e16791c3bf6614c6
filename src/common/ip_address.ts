/**
 * IP addresses as bytes and back (Rust's `IpAddr` text forms), shared by the VRL functions and the
 * SQL ip functions; each failure goes to the caller's `fail`, which throws its own error kind.
 */

// node:net's isIP, as node's own regular expressions: importing node:net costs a query worker 20-70 ms
// of its start (measured), for a check that is two patterns.
const V4_SEG = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])";
const V4 = `(?:${V4_SEG}\\.){3}${V4_SEG}`;
const V6_SEG = "(?:[0-9a-fA-F]{1,4})";
const IPV4 = new RegExp(`^${V4}$`);
const IPV6 = new RegExp(
  "^(?:" +
    `(?:${V6_SEG}:){7}(?:${V6_SEG}|:)|` +
    `(?:${V6_SEG}:){6}(?:${V4}|:${V6_SEG}|:)|` +
    `(?:${V6_SEG}:){5}(?::${V4}|(?::${V6_SEG}){1,2}|:)|` +
    `(?:${V6_SEG}:){4}(?:(?::${V6_SEG}){0,1}:${V4}|(?::${V6_SEG}){1,3}|:)|` +
    `(?:${V6_SEG}:){3}(?:(?::${V6_SEG}){0,2}:${V4}|(?::${V6_SEG}){1,4}|:)|` +
    `(?:${V6_SEG}:){2}(?:(?::${V6_SEG}){0,3}:${V4}|(?::${V6_SEG}){1,5}|:)|` +
    `(?:${V6_SEG}:){1}(?:(?::${V6_SEG}){0,4}:${V4}|(?::${V6_SEG}){1,6}|:)|` +
    `(?::(?:(?::${V6_SEG}){0,5}:${V4}|(?::${V6_SEG}){1,7}|:))` +
    ")(?:%[0-9a-zA-Z-.:]{1,})?$",
);

/** 4 or 6 for an IPv4 or IPv6 address (a zone allowed), else 0: node:net's `isIP`. */
export function isIP(text: string): 0 | 4 | 6 {
  return IPV4.test(text) ? 4 : IPV6.test(text) ? 6 : 0;
}

/** Throws the caller's error for a message. */
export type Fail = (message: string) => never;

const plainError: Fail = (message) => {
  throw new Error(message);
};

/** An address's bytes: 4 for IPv4, 16 for IPv6 (a zone is dropped, an embedded dotted quad read). */
export function ipBytes(ip: string, fail: Fail = plainError): Uint8Array {
  const version = isIP(ip);
  if (version === 4) return Uint8Array.from(ip.split(".").map(Number));
  if (version !== 6) return fail("unable to parse IP address: invalid IP address syntax");
  let text = ip.replace(/%.*$/, "");
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split(".").map(Number);
    text = text.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const groups = (g: string | undefined) => (g ? g.split(":") : []);
  const h = groups(head), t = groups(tail);
  const all = tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill("0"), ...t];
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    const n = parseInt(g, 16);
    out[i * 2] = n >> 8;
    out[i * 2 + 1] = n & 0xff;
  });
  return out;
}

/** An address as 16 bytes (IPv4 becomes IPv4-mapped IPv6). */
export function ipTo16(ip: string, fail: Fail = plainError): Uint8Array {
  const b = ipBytes(ip, fail);
  if (b.length === 16) return b;
  const out = new Uint8Array(16);
  out[10] = out[11] = 0xff;
  out.set(b, 12);
  return out;
}

const isV4Mapped = (b: Uint8Array) =>
  b.subarray(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;

/** 16 bytes back to text: IPv4-mapped addresses as plain dotted quads, others as {@link ipText}. */
export function ipFrom16(b: Uint8Array, fail: Fail = plainError): string {
  return isV4Mapped(b) ? [...b.subarray(12)].join(".") : ipText(b, fail);
}

/** 4 or 16 bytes as Rust's `IpAddr` prints them (RFC 5952; IPv4-mapped as `::ffff:a.b.c.d`). */
export function ipText(b: Uint8Array, fail: Fail = plainError): string {
  if (b.length === 4) return [...b].join(".");
  if (b.length !== 16) return fail("unable to convert value to IP address: value must be 4 or 16 bytes long");
  if (isV4Mapped(b)) return `::ffff:${[...b.subarray(12)].join(".")}`;
  const groups = Array.from({ length: 8 }, (_, i) => (b[2 * i] << 8) | b[2 * i + 1]);
  let bestAt = -1, bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [bestAt, bestLen] = [i, j - i];
    i = j;
  }
  const hex = (g: number[]) => g.map((x) => x.toString(16)).join(":");
  if (bestLen < 2) return hex(groups);
  return `${hex(groups.slice(0, bestAt))}::${hex(groups.slice(bestAt + bestLen))}`;
}
