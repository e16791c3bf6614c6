/**
 * Protobuf-aware spoilers for the body fuzzer (`fuzz_body.ts`): a valid body is read as wire format
 * (a length-delimited field is a nested message when its bytes parse as one), one field is spoiled
 * and the message is written back with every enclosing length right, so the damage reaches the
 * decoder's deeper checks: lying and huge length prefixes, overlong and negative varints, NaN/±Inf
 * and extreme fixed64 (timestamps, values), wrong wire types, invalid UTF-8 and empty strings,
 * dropped, duplicated and thousandfold repeated fields, deep nesting, unterminated groups and
 * out-of-range field numbers.
 */

/** Spoils a body with seeded randomness. */
export type Mutation = (body: Uint8Array, r: () => number) => Uint8Array;

/** A pick from a list with seeded randomness. */
export const pick = <T>(xs: readonly T[], r: () => number): T => xs[Math.floor(r() * xs.length)];

/** The byte sequences that are not UTF-8 (a lone continuation lead, a surrogate, past U+10FFFF, overlong). */
export const BAD_UTF8 = [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0xfe]];

/** Byte arrays end to end. */
export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** How large a "giant" spoiler grows a body: under the fuzzer's body limit, far past any sane count. */
export const GIANT_BYTES = 256 << 10;

/** One field as read from the wire; `children` when its bytes parse as a message. */
interface PbField {
  field: number;
  wire: number;
  /** The varint's or fixed value's bytes, or a length-delimited field's payload. */
  raw: Uint8Array;
  children?: PbField[];
  /** A spoiled wire type written in the tag instead of `wire` (the payload stays as it was). */
  tagWire?: number;
  /** A spoiled length prefix written instead of the payload's length. */
  lengthLie?: bigint;
}

function readVarint(b: Uint8Array, at: number): [bigint, number] | null {
  let v = 0n;
  for (let i = 0; i < 10 && at + i < b.length; i++) {
    v |= BigInt(b[at + i] & 0x7f) << BigInt(7 * i);
    if ((b[at + i] & 0x80) === 0) return [v, at + i + 1];
  }
  return null;
}

function varint(v: bigint): Uint8Array {
  const out: number[] = [];
  let x = BigInt.asUintN(64, v);
  do {
    const low = Number(x & 0x7fn);
    x >>= 7n;
    out.push(x > 0n ? low | 0x80 : low);
  } while (x > 0n);
  return new Uint8Array(out);
}

/** Reads a message; null when the bytes are not one (a length-delimited field is then a string or bytes). */
function parsePb(b: Uint8Array, depth = 0): PbField[] | null {
  if (depth > 20) return null;
  const out: PbField[] = [];
  let at = 0;
  while (at < b.length) {
    const tag = readVarint(b, at);
    if (!tag || tag[0] >> 3n === 0n || tag[0] >> 3n > 536870911n) return null;
    const field = Number(tag[0] >> 3n), wire = Number(tag[0] & 7n);
    at = tag[1];
    if (wire === 0) {
      const v = readVarint(b, at);
      if (!v) return null;
      out.push({ field, wire, raw: b.subarray(at, v[1]) });
      at = v[1];
    } else if (wire === 1 || wire === 5) {
      const n = wire === 1 ? 8 : 4;
      if (at + n > b.length) return null;
      out.push({ field, wire, raw: b.subarray(at, at + n) });
      at += n;
    } else if (wire === 2) {
      const len = readVarint(b, at);
      if (!len || len[1] + Number(len[0]) > b.length) return null;
      const raw = b.subarray(len[1], len[1] + Number(len[0]));
      // printable bytes are a string even when they happen to parse as a message
      const printable = raw.length > 0 && raw.every((c) => c >= 0x20 && c < 0x7f);
      out.push({ field, wire, raw, children: printable ? undefined : parsePb(raw, depth + 1) ?? undefined });
      at = len[1] + Number(len[0]);
    } else return null;
  }
  return out;
}

function encodePb(fields: PbField[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const f of fields) {
    parts.push(varint(BigInt(f.field) << 3n | BigInt(f.tagWire ?? f.wire)));
    const payload = f.children ? encodePb(f.children) : f.raw;
    if (f.wire === 2) parts.push(varint(f.lengthLie ?? BigInt(payload.length)));
    parts.push(payload);
  }
  return concat(parts);
}

/** Every field with the list holding it, depth first. */
function allFields(fields: PbField[], out: Array<{ f: PbField; list: PbField[] }> = []) {
  for (const f of fields) {
    out.push({ f, list: fields });
    if (f.children) allFields(f.children, out);
  }
  return out;
}

/** Spoils one field (`spoil` says whether it could) and writes the message back. */
function pbMutation(spoil: (f: PbField, list: PbField[], r: () => number) => boolean): Mutation {
  return (body, r) => {
    const tree = parsePb(body);
    if (!tree || tree.length === 0) return body;
    const fields = allFields(tree);
    for (let tries = 0; tries < 8; tries++) {
      const { f, list } = pick(fields, r);
      if (spoil(f, list, r)) return encodePb(tree);
    }
    return body;
  };
}

const f64 = (x: number) => new Uint8Array(new Float64Array([x]).buffer);
const u64 = (x: bigint) => new Uint8Array(new BigUint64Array([BigInt.asUintN(64, x)]).buffer);
const FIXED64 = [
  f64(NaN),
  f64(Infinity),
  f64(-Infinity),
  f64(-0),
  f64(1e308),
  u64(-1n),
  u64(1n << 63n),
  u64(0n),
];
const VARINTS = [
  varint(-1n), // a negative int64: ten bytes
  varint((1n << 64n) - 1n),
  varint(1n << 63n),
  varint(1n << 32n),
  new Uint8Array([...Array(10).fill(0xff), 0x01]), // eleven bytes: past any varint
  new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]), // an overlong zero
];
const LENGTH_LIES = [1n, 1000n, -1n, 0x7fffffffn, 0xffffffffn, 1n << 63n];

const EDGE_STRINGS = [
  "",
  " ",
  "\u0000",
  "{",
  "}",
  '{a="',
  '{=""}',
  '{a="1",a="2"}',
  '{__name__="x"}',
  "a".repeat(70_000),
  "__name__",
  "1e400",
  "-1",
  "NaN",
  "9223372036854775808",
  "🙂",
  "a\nb",
  "\\",
  '"',
].map((t) => new TextEncoder().encode(t));

/** The protobuf spoilers, by name. */
export const PROTOBUF_MUTATIONS: Record<string, Mutation> = {
  pb_lying_length: pbMutation((f, _l, r) => {
    if (f.wire !== 2) return false;
    const lie = pick(LENGTH_LIES, r);
    const n = BigInt(f.children ? encodePb(f.children).length : f.raw.length);
    f.lengthLie = lie === -1n ? (n > 0n ? n - 1n : 0n) : lie < 1001n ? n + lie : lie;
    return true;
  }),
  pb_huge_varint: pbMutation((f, _l, r) => f.wire === 0 && ((f.raw = pick(VARINTS, r)), true)),
  pb_fixed64_edge: pbMutation((f, _l, r) => f.wire === 1 && ((f.raw = pick(FIXED64, r)), true)),
  pb_wrong_wire: pbMutation((f, _l, r) => {
    f.tagWire = pick([0, 1, 2, 3, 4, 5, 6, 7].filter((w) => w !== f.wire), r);
    return true;
  }),
  pb_bad_utf8: pbMutation((f, _l, r) => {
    if (f.wire !== 2 || f.children) return false;
    const at = Math.floor(r() * (f.raw.length + 1));
    f.raw = concat([f.raw.subarray(0, at), new Uint8Array(pick(BAD_UTF8, r)), f.raw.subarray(at)]);
    return true;
  }),
  pb_string: pbMutation((f, _l, r) => {
    // a printable leaf (a name, a label set, a value) replaced by text its parser may choke on
    if (f.wire !== 2 || f.children || !f.raw.every((c) => c >= 0x20 && c < 0x7f)) return false;
    f.raw = pick(EDGE_STRINGS, r);
    return true;
  }),
  pb_empty: pbMutation((f) => {
    if (f.wire !== 2) return false;
    f.children = undefined;
    f.raw = new Uint8Array(0);
    return true;
  }),
  pb_drop: pbMutation((f, list) => (list.splice(list.indexOf(f), 1), true)),
  pb_duplicate: pbMutation((f, list) => (list.splice(list.indexOf(f), 0, { ...f }), true)),
  pb_giant: pbMutation((f, list) => {
    const n = Math.max(2, Math.min(5000, Math.floor(GIANT_BYTES / Math.max(1, encodePb([f]).length))));
    list.splice(list.indexOf(f), 0, ...Array.from({ length: n }, () => f));
    return true;
  }),
  pb_deep: pbMutation((f, _l, r) => {
    if (f.wire !== 2) return false;
    // a message nested in field 1 of itself, many levels, built from the inside out
    let inner = f.children ? encodePb(f.children) : f.raw;
    const depth = 200 + Math.floor(r() * 20_000);
    for (let i = 0; i < depth && inner.length < GIANT_BYTES; i++) {
      inner = concat([new Uint8Array([0x0a]), varint(BigInt(inner.length)), inner]);
    }
    f.children = undefined;
    f.raw = inner;
    return true;
  }),
  pb_groups: pbMutation((f, _l, r) => {
    if (f.wire !== 2) return false;
    // start-group tags (wire type 3) never ended, which a recursive reader descends into
    f.children = undefined;
    f.raw = new Uint8Array(1000 + Math.floor(r() * 50_000)).fill(0x0b);
    return true;
  }),
  pb_field_number: pbMutation((f, _l, r) => ((f.field = pick([0, 536870911, 19000, 15], r)), true)),
};
