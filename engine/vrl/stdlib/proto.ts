/**
 * `parse_proto` and `encode_proto`: protobuf messages described by a compiled FileDescriptorSet
 * (`protoc --descriptor_set_out`). The descriptor file and message type must be literals; the file is read
 * when the program compiles, and a missing file or unknown type is a compile error (E610), as in VRL.
 */

import { bytesString, utf8Bytes } from "../bytes.ts";
import { K } from "../types.ts";
import type { VrlValue } from "../value.ts";
import { type ArgInfo, fail, type FnDef, req } from "./def.ts";
import { decodeMessage } from "./proto_decode.ts";
import { encodeMessage } from "./proto_encode.ts";
import { messageDescriptor, type ProtoMessage } from "./proto_schema.ts";
import { WireError } from "./proto_wire.ts";

// Arguments 1 and 2 (`desc_file`, `message_type`) must be literal strings; loads the message type.
function checkDescriptor(a: (ArgInfo | undefined)[]): string | undefined {
  for (const [i, name] of [[1, "desc_file"], [2, "message_type"]] as const) {
    if (a[i] && typeof a[i]!.constant?.value !== "string") {
      return `unexpected expression for argument "${name}": expected a literal string`;
    }
  }
  const path = a[1]?.constant?.value, type = a[2]?.constant?.value;
  if (typeof path !== "string" || typeof type !== "string") return undefined;
  try {
    messageDescriptor(path, type, true);
  } catch (e) {
    return (e as Error).message;
  }
}

function descriptorOf(path: VrlValue | undefined, type: VrlValue | undefined): ProtoMessage {
  try {
    return messageDescriptor(path as string, type as string);
  } catch (e) {
    return fail((e as Error).message);
  }
}

function parseProto(value: string, message: ProtoMessage): VrlValue {
  try {
    return decodeMessage(message, utf8Bytes(value));
  } catch (e) {
    if (e instanceof WireError) {
      fail(`Error parsing protobuf: failed to decode Protobuf message: ${e.message}`);
    }
    throw e;
  }
}

/** The protobuf functions by name. */
export const PROTO_FNS: Record<string, FnDef> = {
  parse_proto: {
    params: [req("value", K.BYTES), req("desc_file", K.BYTES), req("message_type", K.BYTES)],
    returns: K.OBJECT,
    fallible: true,
    fresh: true,
    check: checkDescriptor,
    call: ([v, path, type]) => parseProto(v as string, descriptorOf(path, type)),
  },
  encode_proto: {
    params: [req("value", K.ANY), req("desc_file", K.BYTES), req("message_type", K.BYTES)],
    returns: K.BYTES,
    fallible: true,
    check: checkDescriptor,
    call: ([v, path, type]) => bytesString(encodeMessage(descriptorOf(path, type), v!)),
  },
};
