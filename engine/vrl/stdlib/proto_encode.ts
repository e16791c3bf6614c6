/**
 * VRL value → protobuf bytes, as VRL's `encode_message` over a prost-reflect `DynamicMessage`: object keys
 * that name fields are set (others ignored, `null` leaves a field unset), each VRL kind converts only to the
 * proto types VRL accepts for it, and the message is written in field-number order (proto3 fields without
 * presence are not written when they hold the default).
 */

import { lossyText, utf8Bytes } from "../bytes.ts";
import { isObject, kindOf, VrlRegex, VrlTimestamp, type VrlValue } from "../value.ts";
import { fail } from "./def.ts";
import type { ProtoField, ProtoMessage } from "./proto_schema.ts";
import { SCALAR_WIRE_TYPE, WireWriter, zigzag } from "./proto_wire.ts";

/** A converted value: a scalar ready for its wire type, or a nested message's fields. */
type Encoded = bigint | number | boolean | Uint8Array | EncodedMessage;
type EncodedMessage = {
  message: ProtoMessage;
  fields: Map<ProtoField, Encoded | Encoded[] | [Encoded, Encoded][]>;
};

/** Encodes `value` as a `message`; fails with VRL's messages when a value does not fit its field. */
export function encodeMessage(message: ProtoMessage, value: VrlValue): Uint8Array {
  const w = new WireWriter();
  writeMessage(w, convertMessage(message, value));
  return w.finish();
}

function convertMessage(message: ProtoMessage, value: VrlValue): EncodedMessage {
  if (!isObject(value)) return fail("ProtobufSerializer only accepts structured events");
  const fields: EncodedMessage["fields"] = new Map();
  const oneofs = new Map<number, ProtoField>();
  for (const field of message.fields) {
    const v = value.get(field.name);
    if (v === undefined || v === null) continue;
    fields.set(field, convertField(field, v));
    // Setting one member of a oneof clears the others, so the last one set wins.
    if (
      field.oneof !== undefined && field.presence &&
      message.fields.some((f) => f !== field && f.oneof === field.oneof)
    ) {
      const before = oneofs.get(field.oneof);
      if (before) fields.delete(before);
      oneofs.set(field.oneof, field);
    }
  }
  return { message, fields };
}

function convertField(field: ProtoField, v: VrlValue): Encoded | Encoded[] | [Encoded, Encoded][] {
  if (Array.isArray(v)) {
    if (!field.repeated) return fail("Cannot encode array into a non-repeated protobuf field");
    if (field.map) return fail(`Error setting ${field.name} field: expected a map, but found a list`);
    return v.map((x) => convertRaw(field, x));
  }
  if (field.map) {
    if (!isObject(v)) {
      return fail(`Error setting ${field.name} field: expected a map, but found ${kindOf(v)}`);
    }
    const { key, value } = field.map;
    return [...v].map(([k, x]): [Encoded, Encoded] => [mapKey(key, k), convertRaw(value, x)]);
  }
  if (field.repeated) {
    return fail(`Error setting ${field.name} field: expected a list, but found ${kindOf(v)}`);
  }
  return convertRaw(field, v);
}

// Object keys are strings; a map with integer or boolean keys takes their text.
function mapKey(key: ProtoField, k: string): Encoded {
  if (key.type === "STRING") return utf8Bytes(k);
  if (key.type === "BOOL" && (k === "true" || k === "false")) return k === "true";
  if (/^-?\d+$/.test(k)) return convertRaw(key, BigInt(k));
  return fail(`Cannot encode map key '${k}' into protobuf \`${kindDebug(key)}\``);
}

function convertRaw(field: ProtoField, v: VrlValue): Encoded {
  const t = field.type;
  if (typeof v === "boolean" && t === "BOOL") return v;
  if (typeof v === "string") {
    if (t === "BYTES") return utf8Bytes(v);
    if (t === "STRING") return new TextEncoder().encode(lossyText(v));
    if (t === "ENUM") {
      const name = lossyText(v);
      const n = field.enumType!.byName.get(name);
      if (n === undefined) {
        return fail(`Enum \`${field.enumType!.fullName}\` has no value that matches string '${name}'`);
      }
      return BigInt(n);
    }
  }
  if (typeof v === "number" && (t === "DOUBLE" || t === "FLOAT")) return v;
  if (typeof v === "bigint") {
    const n = integerFor(t, v);
    if (n !== undefined) return n;
  }
  if (isObject(v) && field.message) return convertMessage(field.message, v);
  if (v instanceof VrlRegex && (t === "STRING" || t === "BYTES")) return utf8Bytes(v.source);
  if (v instanceof VrlTimestamp) {
    if (t === "INT64") return floorDiv(v.ns, 1000n);
    if (field.message?.fullName === "google.protobuf.Timestamp") return timestampMessage(field.message, v);
  }
  return fail(`Cannot encode \`${kindOf(v)}\` into protobuf \`${kindDebug(field)}\``);
}

// Rust's `as` casts: integers are narrowed by truncation.
function integerFor(t: string, v: bigint): bigint | undefined {
  switch (t) {
    case "INT32":
    case "SINT32":
    case "SFIXED32":
    case "ENUM":
      return BigInt.asIntN(32, v);
    case "UINT32":
    case "FIXED32":
      return BigInt.asUintN(32, v);
    case "INT64":
    case "SINT64":
    case "SFIXED64":
    case "UINT64":
    case "FIXED64":
      return v;
  }
  return undefined;
}

function timestampMessage(message: ProtoMessage, ts: VrlTimestamp): EncodedMessage {
  const seconds = floorDiv(ts.ns, 1_000_000_000n);
  const fields: EncodedMessage["fields"] = new Map();
  const secondsField = message.fields.find((f) => f.name === "seconds");
  const nanosField = message.fields.find((f) => f.name === "nanos");
  if (secondsField) fields.set(secondsField, seconds);
  if (nanosField) fields.set(nanosField, ts.ns - seconds * 1_000_000_000n);
  return { message, fields };
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b < 0n ? q - 1n : q;
}

// prost-reflect's `Kind` as Rust's `{:?}` shows it, with message and enum types by full name.
function kindDebug(f: ProtoField): string {
  if (f.message) return `Message(${f.message.fullName})`;
  if (f.enumType) return `Enum(${f.enumType.fullName})`;
  return f.type.charAt(0) + f.type.slice(1).toLowerCase();
}

function isDefault(v: Encoded): boolean {
  return v === 0n || v === 0 || v === false || (v instanceof Uint8Array && v.length === 0);
}

function writeMessage(w: WireWriter, m: EncodedMessage): void {
  const fields = [...m.fields].sort(([a], [b]) => a.number - b.number);
  for (const [field, v] of fields) {
    if (field.map) {
      for (const [k, x] of v as [Encoded, Encoded][]) {
        const entry = new WireWriter();
        writeValue(entry, field.map.key, k);
        writeValue(entry, field.map.value, x);
        w.tag(field.number, 2);
        w.bytes(entry.finish());
      }
    } else if (Array.isArray(v)) {
      if (field.packed) {
        if (v.length === 0) continue;
        const packed = new WireWriter();
        for (const x of v as Encoded[]) writeScalar(packed, field.type, x);
        w.tag(field.number, 2);
        w.bytes(packed.finish());
      } else for (const x of v as Encoded[]) writeValue(w, field, x);
    } else if (field.presence || !isDefault(v)) writeValue(w, field, v);
  }
}

function writeValue(w: WireWriter, field: ProtoField, v: Encoded): void {
  if (field.type === "GROUP") {
    w.tag(field.number, 3);
    writeMessage(w, v as EncodedMessage);
    w.tag(field.number, 4);
    return;
  }
  w.tag(field.number, SCALAR_WIRE_TYPE[field.type] ?? 2);
  writeScalar(w, field.type, v);
}

function writeScalar(w: WireWriter, type: string, v: Encoded): void {
  switch (type) {
    case "DOUBLE":
      return w.double(v as number);
    case "FLOAT":
      return w.float(v as number);
    case "FIXED32":
    case "SFIXED32":
      return w.fixed32(v as bigint);
    case "FIXED64":
    case "SFIXED64":
      return w.fixed64(v as bigint);
    case "SINT32":
    case "SINT64":
      return w.varint(zigzag(v as bigint));
    case "BOOL":
      return w.varint(v ? 1n : 0n);
    case "STRING":
    case "BYTES":
      return w.bytes(v as Uint8Array);
    case "MESSAGE": {
      const sub = new WireWriter();
      writeMessage(sub, v as EncodedMessage);
      return w.bytes(sub.finish());
    }
    default:
      return w.varint(v as bigint);
  }
}
