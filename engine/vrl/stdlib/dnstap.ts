/**
 * `parse_dnstap`: a base64 dnstap frame (the dnstap protobuf with DNS wire-format messages inside) into the
 * object Vector's dnstap source emits (`dataType`, `messageType`, `requestData`/`responseData` with
 * `header`, `question`, `answers`, `opt`, …). A DNS message that does not parse leaves `error` and
 * `rawData` (base64 of the frame) in the result, as Vector does; a frame that does not decode fails.
 */

import { K } from "../types.ts";
import { type VrlObject, VrlTimestamp, type VrlValue } from "../value.ts";
import { fail, flag, type FnDef, opt, req } from "./def.ts";
import { className, edePurpose, ednsOptionName, rcodeName, recordTypeName } from "./dns_names.ts";
import {
  DnsError,
  type DnsMessage,
  type DnsOpt,
  DnsReader,
  type DnsRecord,
  parseDnsMessage,
} from "./dns_wire.ts";
import { ipText } from "./ip.ts";
import { WireError, WireReader } from "./proto_wire.ts";

/** The fields of a dnstap `Message` (field number → raw value: bytes, or an integer). */
type Fields = Map<number, Uint8Array | bigint>;

// Reads a message of only scalar and bytes fields; fixed32 fields become integers.
function readFields(bytes: Uint8Array): Fields {
  const r = new WireReader(bytes), out: Fields = new Map();
  while (r.more()) {
    const tag = r.small();
    switch (tag & 7) {
      case 0:
        out.set(tag >>> 3, r.varint());
        break;
      case 2:
        out.set(tag >>> 3, r.bytes());
        break;
      case 5:
        out.set(tag >>> 3, BigInt(r.fixed32()));
        break;
      default:
        r.skip(tag);
    }
  }
  return out;
}

const MESSAGE_TYPES = [
  "",
  "AuthQuery",
  "AuthResponse",
  "ResolverQuery",
  "ResolverResponse",
  "ClientQuery",
  "ClientResponse",
  "ForwarderQuery",
  "ForwarderResponse",
  "StubQuery",
  "StubResponse",
  "ToolQuery",
  "ToolResponse",
  "UpdateQuery",
  "UpdateResponse",
];
const SOCKET_FAMILIES = ["", "INET", "INET6"];
const SOCKET_PROTOCOLS = ["", "UDP", "TCP", "DOT", "DOH", "DNSCryptUDP", "DNSCryptTCP", "DOQ"];

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const obj = (entries: [string, VrlValue | undefined][]): VrlObject =>
  new Map(entries.filter((e): e is [string, VrlValue] => e[1] !== undefined));

/** Decodes a dnstap frame into Vector's event shape. */
export function parseDnstap(frame: Uint8Array, lowercase: boolean): VrlObject {
  let top: Fields;
  try {
    top = readFields(frame);
  } catch (e) {
    if (e instanceof WireError) fail(`failed to decode Protobuf message: ${e.message}`);
    throw e;
  }
  const out: VrlObject = new Map();
  const bytesAt = (f: Fields, n: number) =>
    f.get(n) instanceof Uint8Array ? f.get(n) as Uint8Array : undefined;
  for (const [n, key] of [[1, "serverId"], [2, "serverVersion"], [3, "extraInfo"]] as const) {
    const b = bytesAt(top, n);
    if (b) out.set(key, text(b));
  }
  const dataType = Number(top.get(15) ?? 0n);
  out.set("dataTypeId", BigInt(dataType));
  let error: string | undefined;
  if (dataType === 1) {
    out.set("dataType", "Message");
    const message = bytesAt(top, 14);
    if (message) {
      try {
        dnstapMessage(out, readFields(message), lowercase);
      } catch (e) {
        if (!(e instanceof DnsError || e instanceof WireError)) throw e;
        error = e.message;
      }
    }
  } else error = `Unknown dnstap data type: ${dataType}`;
  if (error !== undefined) {
    out.set("error", error);
    out.set("rawData", frame.toBase64());
  }
  return out;
}

function dnstapMessage(out: VrlObject, m: Fields, lowercase: boolean): void {
  const int = (n: number) => m.get(n) as bigint | undefined;
  const bytes = (n: number) => m.get(n) instanceof Uint8Array ? m.get(n) as Uint8Array : undefined;
  const family = int(2);
  if (family !== undefined) {
    const name = SOCKET_FAMILIES[Number(family)];
    if (!name) throw new DnsError(`Unknown socket family: ${family}`);
    out.set("socketFamily", name);
    const protocol = int(3);
    if (protocol !== undefined) {
      const p = SOCKET_PROTOCOLS[Number(protocol)];
      if (!p) throw new DnsError(`Unknown socket protocol: ${protocol}`);
      out.set("socketProtocol", p);
    }
    const width = family === 1n ? 4 : 16;
    for (const [n, key] of [[4, "sourceAddress"], [5, "responseAddress"]] as const) {
      const a = bytes(n);
      if (!a) continue;
      if (a.length < width) throw new DnsError(`Cannot parse ${n === 4 ? "query" : "response"}_address`);
      out.set(key, ipText(a.subarray(0, width)));
    }
    if (int(6) !== undefined) out.set("sourcePort", int(6)!);
    if (int(7) !== undefined) out.set("responsePort", int(7)!);
  }
  const zone = bytes(11);
  if (zone) out.set("queryZone", parseDnsName(zone));
  const type = Number(int(1) ?? 0n);
  const isRequest = type % 2 === 1;
  const request = new Map<string, VrlValue>(), response = new Map<string, VrlValue>();
  messageTime(out, request, int(8), int(9), isRequest, bytes(10));
  messageTime(out, response, int(12), int(13), !isRequest, bytes(14));
  out.set("messageTypeId", BigInt(type));
  out.set("messageType", MESSAGE_TYPES[type] || `Unknown dnstap message type: ${type}`);
  const attach = () => {
    if (request.size) out.set("requestData", request);
    if (response.size) out.set("responseData", response);
  };
  if (!MESSAGE_TYPES[type]) {
    attach();
    throw new DnsError(`Unknown dnstap message type: ${type}`);
  }
  try {
    for (const [raw, into] of [[bytes(10), request], [bytes(14), response]] as const) {
      if (!raw) continue;
      try {
        dnsMessage(into, parseDnsMessage(raw, lowercase), type >= 13);
      } catch (e) {
        into.set("rawData", raw.toBase64());
        throw e;
      }
    }
  } finally {
    attach();
  }
}

// The event time is the query time of queries and the response time of responses; a time without its
// message is kept in that message's place.
function messageTime(
  out: VrlObject,
  data: VrlObject,
  sec: bigint | undefined,
  nsec: bigint | undefined,
  isEventTime: boolean,
  message: Uint8Array | undefined,
): void {
  if (sec === undefined) return;
  const ns = sec * 1_000_000_000n + (nsec ?? 0n);
  if (isEventTime) {
    out.set("time", ns);
    out.set("timePrecision", "ns");
    out.set("timestamp", new VrlTimestamp(ns));
  }
  if (!message) {
    data.set("time", ns);
    data.set("timePrecision", "ns");
  }
}

// A query zone is a bare wire-format name.
function parseDnsName(b: Uint8Array): string {
  return new DnsReader(b).name();
}

function dnsMessage(into: VrlObject, m: DnsMessage, update: boolean): void {
  into.set("fullRcode", BigInt(m.rcode));
  const name = rcodeName(m.rcode);
  if (name) into.set("rcodeName", name);
  const f = m.flags, bit = (n: number) => (f & (1 << n)) !== 0;
  const [c0, c1, c2, c3] = m.counts.map(BigInt);
  const common: [string, VrlValue][] = [
    ["id", BigInt(m.id)],
    ["opcode", BigInt((f >> 11) & 0xf)],
    ["rcode", BigInt(m.rcode)],
    ["qr", BigInt(f >> 15)],
  ];
  const records = (key: string, rs: DnsRecord[]) => {
    if (rs.length) into.set(key, rs.map(recordValue));
  };
  if (update) {
    into.set("header", obj([...common, ["zoCount", c0], ["prCount", c1], ["upCount", c2], ["adCount", c3]]));
    const z = m.questions[0];
    if (z) {
      into.set(
        "zone",
        obj([["zName", z.name], ["zClass", className(z.class)], ["zType", typeName(z.type)], [
          "zTypeId",
          BigInt(z.type),
        ]]),
      );
    }
    records("prerequisite", m.answers);
    records("update", m.authority);
    records("additional", m.additional);
    return;
  }
  into.set(
    "header",
    obj([
      ...common,
      ["aa", bit(10)],
      ["tc", bit(9)],
      ["rd", bit(8)],
      ["ra", bit(7)],
      ["ad", bit(5)],
      ["cd", bit(4)],
      ["qdCount", c0],
      ["anCount", c1],
      ["nsCount", c2],
      ["arCount", c3],
    ]),
  );
  if (m.questions.length) {
    into.set(
      "question",
      m.questions.map((q) =>
        obj([
          ["class", className(q.class)],
          ["domainName", q.name],
          ["questionType", typeName(q.type)],
          ["questionTypeId", BigInt(q.type)],
        ])
      ),
    );
  }
  records("answers", m.answers);
  records("authority", m.authority);
  records("additional", m.additional);
  if (m.opt) into.set("opt", optValue(m.opt));
}

const typeName = (t: number) => recordTypeName(t) ?? "Unknown";

function recordValue(r: DnsRecord): VrlObject {
  return obj([
    ["domainName", r.name],
    ["recordType", recordTypeName(r.type)],
    ["recordTypeId", BigInt(r.type)],
    ["ttl", BigInt(r.ttl)],
    ["class", className(r.class)],
    ["rData", r.rdata],
    ["rDataBytes", r.rdataBytes?.toBase64()],
  ]);
}

const EDE = 15;

function optValue(o: DnsOpt): VrlObject {
  const options = o.options.filter((x) => x.code !== EDE).map((x) =>
    obj([["optCode", BigInt(x.code)], ["optName", ednsOptionName(x.code)], ["optValue", x.data.toBase64()]])
  );
  const ede = o.options.filter((x) => x.code === EDE).map(({ data }) => {
    if (data.length < 2) throw new DnsError("EDE option is too short");
    const code = (data[0] << 8) | data[1];
    const extra = data.subarray(2);
    return obj([
      ["infoCode", BigInt(code)],
      ["purpose", edePurpose(code)],
      ["extraText", extra.length ? text(extra) : undefined],
    ]);
  });
  return obj([
    ["do", o.dnssecOk],
    ["ednsVersion", BigInt(o.version)],
    ["extendedRcode", BigInt(o.extendedRcode)],
    ["udpPayloadSize", BigInt(o.udpPayloadSize)],
    ["options", options.length ? options : undefined],
    ["ede", ede.length ? ede : undefined],
  ]);
}

/** The dnstap function by name. */
export const DNSTAP_FNS: Record<string, FnDef> = {
  parse_dnstap: {
    params: [req("value", K.BYTES), opt("lowercase_hostnames", K.BOOLEAN)],
    returns: K.OBJECT,
    fallible: true,
    fresh: true,
    call: ([v, lower]) => {
      let frame: Uint8Array;
      try {
        frame = Uint8Array.fromBase64((v as string).trim());
      } catch {
        return fail(`${JSON.stringify(v)} is not a valid base64 encoded string`);
      }
      return parseDnstap(frame, flag(lower, false));
    },
  },
};
