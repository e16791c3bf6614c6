/**
 * Protobuf bytes → VRL value, as VRL's `proto_to_value` over a prost-reflect `DynamicMessage`: an object
 * with the fields that are set (proto3 fields without presence count as set when not the default; empty
 * repeated and map fields are left out), proto field names, enums by name, bytes as bytes, every integer
 * width as an integer (uint64 wraps to i64), maps as objects, nested messages as objects.
 */

import { bytesString } from "../bytes.ts";
import { fail } from "./def.ts";
import type { VrlObject, VrlValue } from "../value.ts";
import type { ProtoField, ProtoMessage } from "./proto_schema.ts";
import { SCALAR_WIRE_TYPE, unzigzag, WireError, WireReader } from "./proto_wire.ts";

/** A decoded scalar before it becomes a VRL value (enums stay numbers until their field is output). */
type Scalar = bigint | number | boolean | string | Decoded;
/** Field number → value: a scalar, a list for repeated fields, entries for map fields. */
type Decoded = Map<number, Scalar | Scalar[] | [Scalar, Scalar][]>;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decodes `bytes` as a `message`; throws `WireError` (prost's wording) on malformed input, a VRL failure
 * on a value VRL cannot hold (an unknown enum number, NaN). */
export function decodeMessage(message: ProtoMessage, bytes: Uint8Array): VrlObject {
  return toObject(message, readMessage(message, new WireReader(bytes), new Map()));
}

function readMessage(message: ProtoMessage, r: WireReader, into: Decoded): Decoded {
  while (r.more()) {
    const tag = r.small();
    const number = tag >>> 3, wireType = tag & 7;
    if (number === 0) throw new WireError("invalid tag value: 0");
    const field = message.byNumber.get(number);
    if (!field) {
      r.skip(tag);
      continue;
    }
    try {
      readField(field, wireType, r, into);
    } catch (e) {
      if (e instanceof WireError && !e.message.includes(": ")) {
        throw new WireError(`${message.name}.${field.name}: ${e.message}`);
      }
      throw e;
    }
  }
  return into;
}

function readField(field: ProtoField, wireType: number, r: WireReader, into: Decoded): void {
  if (field.map) {
    if (wireType !== 2) throw new WireError(`invalid wire type: ${wireType} (expected 2)`);
    const entry = readMessage(field.message!, new WireReader(r.bytes()), new Map());
    const entries = (into.get(field.number) ?? []) as [Scalar, Scalar][];
    entries.push([
      entry.get(1) as Scalar ?? defaultOf(field.map.key),
      entry.get(2) as Scalar ?? defaultOf(field.map.value),
    ]);
    into.set(field.number, entries);
    return;
  }
  if (field.repeated) {
    const list = (into.get(field.number) ?? []) as Scalar[];
    if (wireType === 2 && SCALAR_WIRE_TYPE[field.type] !== undefined) {
      const sub = new WireReader(r.bytes());
      while (sub.more()) list.push(readScalar(field, SCALAR_WIRE_TYPE[field.type], sub));
    } else list.push(readScalar(field, wireType, r));
    into.set(field.number, list);
    return;
  }
  const previous = into.get(field.number);
  // A message field seen twice is merged, as protobuf requires; scalars keep the last value.
  if (field.message && previous instanceof Map) {
    readMessage(field.message, new WireReader(messageBytes(field, wireType, r)), previous);
  } else into.set(field.number, readScalar(field, wireType, r));
}

function messageBytes(field: ProtoField, wireType: number, r: WireReader): Uint8Array {
  if (field.type === "GROUP") {
    expectWire(wireType, 3);
    return r.group(field.number);
  }
  expectWire(wireType, 2);
  return r.bytes();
}

function expectWire(got: number, want: number): void {
  if (got !== want) throw new WireError(`invalid wire type: ${got} (expected ${want})`);
}

function readScalar(field: ProtoField, wireType: number, r: WireReader): Scalar {
  const t = field.type;
  if (t === "MESSAGE" || t === "GROUP") {
    return readMessage(field.message!, new WireReader(messageBytes(field, wireType, r)), new Map());
  }
  expectWire(wireType, SCALAR_WIRE_TYPE[t] ?? 2);
  switch (t) {
    case "DOUBLE":
      return r.double();
    case "FLOAT":
      return r.float();
    case "INT32":
    case "ENUM":
      return BigInt.asIntN(32, r.varint());
    case "SINT32":
      return BigInt.asIntN(32, unzigzag(r.varint()));
    case "SINT64":
      return BigInt.asIntN(64, unzigzag(r.varint()));
    case "UINT32":
      return BigInt.asUintN(32, r.varint());
    case "INT64":
    case "UINT64":
      return BigInt.asIntN(64, r.varint());
    case "FIXED32":
      return BigInt(r.fixed32());
    case "SFIXED32":
      return BigInt.asIntN(32, BigInt(r.fixed32()));
    case "FIXED64":
    case "SFIXED64":
      return BigInt.asIntN(64, r.fixed64());
    case "BOOL":
      return r.varint() !== 0n;
    case "STRING": {
      const b = r.bytes();
      try {
        return utf8.decode(b);
      } catch {
        throw new WireError("invalid string value: data is not UTF-8 encoded");
      }
    }
    default:
      return bytesString(r.bytes());
  }
}

function defaultOf(field: ProtoField): Scalar {
  switch (field.type) {
    case "DOUBLE":
    case "FLOAT":
      return 0;
    case "BOOL":
      return false;
    case "STRING":
    case "BYTES":
      return "";
    case "MESSAGE":
    case "GROUP":
      return new Map();
    default:
      return 0n;
  }
}

function isDefault(v: Scalar): boolean {
  return v === 0n || v === 0 || v === false || v === "";
}

function toObject(message: ProtoMessage, d: Decoded): VrlObject {
  const out: VrlObject = new Map();
  for (const field of message.fields) {
    const v = d.get(field.number);
    if (v === undefined) continue;
    if (field.map) {
      const entries = v as [Scalar, Scalar][];
      const obj: VrlObject = new Map();
      for (const [k, val] of entries) obj.set(mapKey(k), toValue(field.map.value, val));
      out.set(field.name, obj);
    } else if (field.repeated) {
      const list = v as Scalar[];
      if (list.length > 0) out.set(field.name, list.map((x) => toValue(field, x)));
    } else if (field.presence || !isDefault(v as Scalar)) {
      out.set(field.name, toValue(field, v as Scalar));
    }
  }
  return out;
}

// VRL objects have string keys; integer and boolean map keys are written out.
function mapKey(k: Scalar): string {
  return typeof k === "string" ? k : String(k);
}

function toValue(field: ProtoField, v: Scalar): VrlValue {
  if (v instanceof Map) return toObject(field.message!, v);
  if (field.enumType) {
    const name = field.enumType.byNumber.get(Number(v));
    if (name === undefined) fail(`The number ${v} cannot be in '${field.enumType.name}'`);
    return name;
  }
  if (typeof v === "number" && Number.isNaN(v)) fail("Float number cannot be Nan");
  return v;
}
