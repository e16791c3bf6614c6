/**
 * A small MaxMind DB (MMDB 2.0) writer for tests, from the published format: a binary search tree of
 * 24/28/32-bit records, a 16-byte zero separator, the data section in MaxMind's type-tagged encoding,
 * then `\xAB\xCD\xEFMaxMind.com` and the metadata map. IPv4 networks in an IPv6 database sit under
 * `::/96`, as MaxMind's own databases put them. No pointers or deduplication: each network's record
 * is written once.
 */

/** A value to store: JS numbers are uint32 (≥ 0, integral), int32 (negative) or double (fractional). */
export type MmdbValue =
  | string
  | number
  | boolean
  | bigint
  | Uint8Array
  | MmdbTyped
  | MmdbValue[]
  | { [key: string]: MmdbValue };

/** A value with its MMDB type spelt out (to write an integral double, a uint16, a float…). */
export class MmdbTyped {
  constructor(
    readonly type: "double" | "float" | "uint16" | "uint32" | "int32" | "uint64" | "uint128",
    readonly value: number | bigint,
  ) {}
}

/** Typed-value shorthands. */
export const mmdb = {
  double: (v: number) => new MmdbTyped("double", v),
  float: (v: number) => new MmdbTyped("float", v),
  uint16: (v: number) => new MmdbTyped("uint16", v),
  int32: (v: number) => new MmdbTyped("int32", v),
  uint64: (v: bigint) => new MmdbTyped("uint64", v),
  uint128: (v: bigint) => new MmdbTyped("uint128", v),
};

/** What goes into a database. */
export interface MmdbSpec {
  databaseType: string;
  ipVersion?: 4 | 6;
  recordSize?: 24 | 28 | 32;
  languages?: string[];
  description?: Record<string, string>;
  buildEpoch?: bigint;
  /** CIDR → record; more specific networks may sit inside less specific ones. */
  networks: [string, MmdbValue][];
}

type Record_ = Node | { data: number } | null;
interface Node {
  left: Record_;
  right: Record_;
}

/** The bytes of an MMDB file holding `spec`'s networks. */
export function writeMmdb(spec: MmdbSpec): Uint8Array {
  const ipVersion = spec.ipVersion ?? 6;
  const recordSize = spec.recordSize ?? 28;
  const data: number[] = [];
  const root: Node = { left: null, right: null };
  // Less specific first, so a more specific network splits the record it falls in.
  const sorted = [...spec.networks].sort((a, b) =>
    prefixBits(a[0], ipVersion).length - prefixBits(b[0], ipVersion).length
  );
  for (const [cidr, value] of sorted) {
    const offset = data.length;
    data.push(...encode(value));
    insert(root, prefixBits(cidr, ipVersion), offset);
  }
  const nodes: Node[] = [];
  const number = new Map<Node, number>();
  const queue = [root];
  while (queue.length) {
    const n = queue.shift()!;
    number.set(n, nodes.length);
    nodes.push(n);
    for (const c of [n.left, n.right]) if (c && !("data" in c)) queue.push(c);
  }
  const count = nodes.length;
  const recordValue = (r: Record_) => r === null ? count : "data" in r ? count + 16 + r.data : number.get(r)!;
  const nodeBytes = recordSize / 4;
  const tree = new Uint8Array(count * nodeBytes);
  nodes.forEach((n, i) =>
    writeNode(tree, i * nodeBytes, recordSize, recordValue(n.left), recordValue(n.right))
  );
  const metadata = encode({
    node_count: count,
    record_size: mmdb.uint16(recordSize),
    ip_version: mmdb.uint16(ipVersion),
    database_type: spec.databaseType,
    languages: spec.languages ?? ["en"],
    binary_format_major_version: mmdb.uint16(2),
    binary_format_minor_version: mmdb.uint16(0),
    build_epoch: mmdb.uint64(spec.buildEpoch ?? 1_700_000_000n),
    description: spec.description ?? { en: `Petrel test ${spec.databaseType}` },
  });
  const marker = [0xab, 0xcd, 0xef, ...new TextEncoder().encode("MaxMind.com")];
  return new Uint8Array([...tree, ...new Uint8Array(16), ...data, ...marker, ...metadata]);
}

function insert(root: Node, bits: number[], offset: number): void {
  let node = root;
  for (let i = 0; i < bits.length; i++) {
    const side = bits[i] ? "right" : "left";
    if (i === bits.length - 1) {
      node[side] = { data: offset };
      return;
    }
    let next = node[side];
    // A less specific network's record splits: both halves keep it until overwritten.
    if (next === null || "data" in next) next = node[side] = { left: next, right: next };
    node = next;
  }
}

/** The prefix bits of a CIDR in a tree of that IP version. */
function prefixBits(cidr: string, ipVersion: 4 | 6): number[] {
  const [addr, len] = cidr.split("/");
  const bytes = addr.includes(":") ? ipv6Bytes(addr) : addr.split(".").map(Number);
  const plen = Number(len ?? bytes.length * 8);
  const v4InV6 = bytes.length === 4 && ipVersion === 6;
  if (bytes.length === 16 && ipVersion === 4) throw new Error(`${cidr}: IPv6 network in an IPv4 database`);
  const bits = v4InV6 ? new Array(96).fill(0) : [];
  for (let i = 0; i < plen; i++) bits.push((bytes[i >> 3] >> (7 - (i & 7))) & 1);
  return bits;
}

function ipv6Bytes(addr: string): number[] {
  const [head, tail] = addr.split("::");
  const groups = (s: string | undefined) => s ? s.split(":").map((g) => parseInt(g, 16)) : [];
  const h = groups(head), t = groups(tail);
  const all = tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

function writeNode(out: Uint8Array, at: number, size: number, left: number, right: number): void {
  const put = (v: number, pos: number, n: number) => {
    for (let i = n - 1; i >= 0; i--, v = Math.floor(v / 256)) out[pos + i] = v & 0xff;
  };
  if (size === 24 || size === 32) {
    put(left, at, size / 8);
    put(right, at + size / 8, size / 8);
    return;
  }
  put(left & 0xffffff, at, 3);
  out[at + 3] = ((left >>> 24) << 4) | (right >>> 24);
  put(right & 0xffffff, at + 4, 3);
}

const TYPE = {
  utf8: 2,
  double: 3,
  bytes: 4,
  uint16: 5,
  uint32: 6,
  map: 7,
  int32: 8,
  uint64: 9,
  uint128: 10,
  array: 11,
  boolean: 14,
  float: 15,
};

/** A control byte (with the extended type byte and size bytes) and then the payload. */
function field(type: number, size: number, payload: number[] = []): number[] {
  const out: number[] = [];
  let sizeBits = size, extra: number[] = [];
  if (size >= 65821) [sizeBits, extra] = [31, bigEndian(BigInt(size - 65821), 3)];
  else if (size >= 285) [sizeBits, extra] = [30, bigEndian(BigInt(size - 285), 2)];
  else if (size >= 29) [sizeBits, extra] = [29, [size - 29]];
  if (type <= 7) out.push((type << 5) | sizeBits);
  else out.push(sizeBits, type - 7);
  return [...out, ...extra, ...payload];
}

function bigEndian(v: bigint, n: number): number[] {
  const out = new Array(n).fill(0);
  for (let i = n - 1; i >= 0; i--, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

function unsigned(type: number, v: bigint): number[] {
  const bytes: number[] = [];
  for (; v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn));
  return field(type, bytes.length, bytes);
}

function encode(v: MmdbValue): number[] {
  if (typeof v === "string") {
    const b = [...new TextEncoder().encode(v)];
    return field(TYPE.utf8, b.length, b);
  }
  if (typeof v === "boolean") return field(TYPE.boolean, v ? 1 : 0);
  if (typeof v === "bigint") return unsigned(TYPE.uint64, v);
  if (typeof v === "number") {
    if (!Number.isInteger(v)) return encode(mmdb.double(v));
    return encode(v < 0 ? mmdb.int32(v) : new MmdbTyped("uint32", v));
  }
  if (v instanceof Uint8Array) return field(TYPE.bytes, v.length, [...v]);
  if (v instanceof MmdbTyped) return encodeTyped(v);
  if (Array.isArray(v)) return [...field(TYPE.array, v.length), ...v.flatMap(encode)];
  const entries = Object.entries(v);
  return [...field(TYPE.map, entries.length), ...entries.flatMap(([k, x]) => [...encode(k), ...encode(x)])];
}

function encodeTyped({ type, value }: MmdbTyped): number[] {
  const view = new DataView(new ArrayBuffer(8));
  switch (type) {
    case "double":
      view.setFloat64(0, Number(value));
      return field(TYPE.double, 8, [...new Uint8Array(view.buffer)]);
    case "float":
      view.setFloat32(0, Number(value));
      return field(TYPE.float, 4, [...new Uint8Array(view.buffer, 0, 4)]);
    case "int32":
      view.setInt32(0, Number(value));
      return field(TYPE.int32, 4, [...new Uint8Array(view.buffer, 0, 4)]);
    default:
      return unsigned(TYPE[type], BigInt(value));
  }
}
