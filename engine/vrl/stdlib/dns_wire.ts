/**
 * DNS wire-format messages (RFC 1035, EDNS0 of RFC 6891, extended errors of RFC 8914) for `parse_dnstap`,
 * read into the shapes Vector's dnstap parser builds from hickory-dns: names printed as hickory prints them
 * (trailing dot, escapes), the OPT record lifted out of the additional section, the response code widened
 * by the EDNS high bits.
 */

import { recordData } from "./dns_rdata.ts";

/** A malformed DNS message. */
export class DnsError extends Error {}

/** Reads a DNS message: big-endian integers and compressed names. */
export class DnsReader {
  pos = 0;
  readonly buf: Uint8Array;
  readonly lowercase: boolean;

  constructor(buf: Uint8Array, lowercase = false) {
    this.buf = buf;
    this.lowercase = lowercase;
  }

  /** Unsigned big-endian integers. */
  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }
  u16(): number {
    this.need(2);
    const v = (this.buf[this.pos] << 8) | this.buf[this.pos + 1];
    this.pos += 2;
    return v;
  }
  u32(): number {
    return this.u16() * 0x10000 + this.u16();
  }

  /** `n` raw bytes. */
  take(n: number): Uint8Array {
    this.need(n);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** A domain name (following compression pointers), as hickory prints it. */
  name(): string {
    const labels: string[] = [];
    let pos = this.pos, jumped = false, hops = 0, length = 0;
    for (;;) {
      if (pos >= this.buf.length) throw new DnsError("unexpected end of input reached");
      const len = this.buf[pos];
      if ((len & 0xc0) === 0xc0) {
        if (pos + 1 >= this.buf.length) throw new DnsError("unexpected end of input reached");
        const target = ((len & 0x3f) << 8) | this.buf[pos + 1];
        if (!jumped) this.pos = pos + 2;
        jumped = true;
        if (++hops > 128 || target >= pos) {
          throw new DnsError(`label points to data not prior to idx: ${pos}`);
        }
        pos = target;
        continue;
      }
      if (len & 0xc0) throw new DnsError(`unrecognized label code: ${len.toString(2)}`);
      if (len === 0) {
        if (!jumped) this.pos = pos + 1;
        break;
      }
      if (pos + 1 + len > this.buf.length) throw new DnsError("unexpected end of input reached");
      length += len + 1;
      if (length > 255) throw new DnsError(`name label data exceed 255: ${length}`);
      labels.push(labelText(this.buf.subarray(pos + 1, pos + 1 + len), this.lowercase));
      pos += 1 + len;
    }
    return labels.length === 0 ? "." : labels.join(".") + ".";
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new DnsError("unexpected end of input reached");
  }
}

// hickory's ASCII label rendering: safe characters as they are, other printable ones after a backslash,
// the rest as a backslash and three octal digits.
function labelText(bytes: Uint8Array, lowercase: boolean): string {
  let out = "";
  bytes.forEach((b, i) => {
    if (lowercase && b >= 0x41 && b <= 0x5a) b += 0x20;
    const c = String.fromCharCode(b);
    const safe = /[A-Za-z0-9_]/.test(c) || (c === "-" && i > 0) || (c === "*" && i === 0);
    if (safe) out += c;
    else if (b > 0x20 && b < 0x7f) out += `\\${c}`;
    else out += `\\${b.toString(8).padStart(3, "0")}`;
  });
  return out;
}

/** A question. */
export interface DnsQuestion {
  name: string;
  type: number;
  class: number;
}

/** A resource record with its data already rendered (`rdata`) or kept raw (`rdataBytes`). */
export interface DnsRecord {
  name: string;
  type: number;
  class: number;
  ttl: number;
  rdata?: string;
  rdataBytes?: Uint8Array;
}

/** The EDNS pseudo-section. */
export interface DnsOpt {
  udpPayloadSize: number;
  extendedRcode: number;
  version: number;
  dnssecOk: boolean;
  options: { code: number; data: Uint8Array }[];
}

/** A whole message: header fields and the four sections (for updates: zone, prerequisite, update, additional). */
export interface DnsMessage {
  id: number;
  flags: number;
  counts: [number, number, number, number];
  /** The 12-bit response code (header bits widened by the EDNS extended code). */
  rcode: number;
  questions: DnsQuestion[];
  answers: DnsRecord[];
  authority: DnsRecord[];
  additional: DnsRecord[];
  opt?: DnsOpt;
}

/** Parses a DNS message; throws `DnsError` on malformed input. */
export function parseDnsMessage(bytes: Uint8Array, lowercase: boolean): DnsMessage {
  const r = new DnsReader(bytes, lowercase);
  const id = r.u16(), flags = r.u16();
  const counts: DnsMessage["counts"] = [r.u16(), r.u16(), r.u16(), r.u16()];
  const questions: DnsQuestion[] = [];
  for (let i = 0; i < counts[0]; i++) questions.push({ name: r.name(), type: r.u16(), class: r.u16() });
  const section = (n: number) => Array.from({ length: n }, () => readRecord(r));
  const answers = section(counts[1]), authority = section(counts[2]);
  const additional: DnsRecord[] = [];
  let opt: DnsOpt | undefined;
  for (let i = 0; i < counts[3]; i++) {
    const rec = readRecord(r);
    if (rec.type === OPT) opt = optOf(rec);
    else additional.push(rec);
  }
  const rcode = (flags & 0xf) | ((opt?.extendedRcode ?? 0) << 4);
  return { id, flags, counts, rcode, questions, answers, authority, additional, opt };
}

const OPT = 41;

// The OPT record's fields are repurposed: class = UDP payload size, TTL = extended rcode, version, flags.
function optOf(rec: DnsRecord): DnsOpt {
  const r = new DnsReader(rec.rdataBytes ?? new Uint8Array());
  const options: DnsOpt["options"] = [];
  while (r.pos < r.buf.length) {
    const code = r.u16();
    options.push({ code, data: r.take(r.u16()) });
  }
  return {
    udpPayloadSize: rec.class,
    extendedRcode: Math.floor(rec.ttl / 0x1000000),
    version: Math.floor(rec.ttl / 0x10000) & 0xff,
    dnssecOk: (rec.ttl & 0x8000) !== 0,
    options,
  };
}

function readRecord(r: DnsReader): DnsRecord {
  const name = r.name();
  const type = r.u16(), klass = r.u16(), ttl = r.u32();
  const length = r.u16();
  const end = r.pos + length;
  if (end > r.buf.length) throw new DnsError("unexpected end of input reached");
  if (type === OPT) return { name, type, class: klass, ttl, rdataBytes: r.take(length) };
  const rendered = recordData(type, r, end);
  if (r.pos !== end) throw new DnsError(`record data of type ${type} does not fill its ${length} bytes`);
  return { name, type, class: klass, ttl, ...rendered };
}
