/**
 * Message descriptors for `parse_proto`/`encode_proto`, read from a compiled FileDescriptorSet (what
 * `protoc --descriptor_set_out` writes) with protobufjs' descriptor messages. The set is decoded into
 * plain field tables when a program compiles; the wire codec (`proto_decode.ts`, `proto_encode.ts`) walks them.
 */

type DescriptorModule = typeof import("protobufjs/ext/descriptor/index.js");

let descriptor: DescriptorModule | undefined;

/** Imports protobufjs' descriptor messages once (~10 ms, so only VRL's loader pays it, not every start-up). */
export async function loadProtoDescriptors(): Promise<void> {
  // A CommonJS module: its exports object is the default export (the typings describe named ones).
  const m = await import("protobufjs/ext/descriptor/index.js");
  descriptor ??= ((m as { default?: DescriptorModule }).default ?? m) as DescriptorModule;
}

/** A protobuf enum: value numbers by name and the first name of each number. */
export interface ProtoEnum {
  name: string;
  fullName: string;
  byName: Map<string, number>;
  byNumber: Map<number, string>;
}

/** One field of a message, resolved. */
export interface ProtoField {
  name: string;
  number: number;
  /** `FieldDescriptorProto.Type` name without the prefix: `INT32`, `STRING`, `MESSAGE`, … */
  type: string;
  repeated: boolean;
  /** Written packed when repeated (proto3 default, or `[packed = true]`). */
  packed: boolean;
  /** Has explicit presence: set-to-default differs from unset (proto2, `optional`, oneof, messages). */
  presence: boolean;
  oneof?: number;
  message?: ProtoMessage;
  enumType?: ProtoEnum;
  /** A `map<K, V>` field: its entry message has `key` and `value`. */
  map?: { key: ProtoField; value: ProtoField };
}

/** A message type with its fields in declaration order. */
export interface ProtoMessage {
  name: string;
  fullName: string;
  fields: ProtoField[];
  byNumber: Map<number, ProtoField>;
  mapEntry: boolean;
}

interface FieldProto {
  name: string;
  number: number;
  label?: string;
  type?: string;
  typeName?: string;
  oneofIndex?: number;
  proto3Optional?: boolean;
  options?: { packed?: boolean };
}
interface MessageProto {
  name: string;
  field?: FieldProto[];
  nestedType?: MessageProto[];
  enumType?: EnumProto[];
  options?: { mapEntry?: boolean };
}
interface EnumProto {
  name: string;
  value?: { name: string; number: number }[];
}
interface FileProto {
  package?: string;
  syntax?: string;
  messageType?: MessageProto[];
  enumType?: EnumProto[];
}

/** All message types of one descriptor set by full name (no leading dot). */
export type DescriptorPool = Map<string, ProtoMessage>;

/** Decodes a FileDescriptorSet into a pool of resolved message types; throws on bad bytes. */
export function decodeDescriptorSet(bytes: Uint8Array): DescriptorPool {
  if (!descriptor) throw new Error("protobufjs is not loaded: await loadVrlLibraries() first");
  const type = descriptor.FileDescriptorSet;
  const set = type.toObject(type.decode(bytes), { enums: String }) as { file?: FileProto[] };
  const messages: DescriptorPool = new Map();
  const enums = new Map<string, ProtoEnum>();
  const pending: [ProtoMessage, FieldProto[], string][] = [];
  const addEnum = (e: EnumProto, scope: string) => {
    const fullName = scope ? `${scope}.${e.name}` : e.name;
    const en: ProtoEnum = { name: e.name, fullName, byName: new Map(), byNumber: new Map() };
    for (const v of e.value ?? []) {
      en.byName.set(v.name, v.number);
      if (!en.byNumber.has(v.number)) en.byNumber.set(v.number, v.name);
    }
    enums.set(fullName, en);
  };
  const addMessage = (m: MessageProto, scope: string, syntax: string) => {
    const fullName = scope ? `${scope}.${m.name}` : m.name;
    const msg: ProtoMessage = {
      name: m.name,
      fullName,
      fields: [],
      byNumber: new Map(),
      mapEntry: m.options?.mapEntry === true,
    };
    messages.set(fullName, msg);
    pending.push([msg, m.field ?? [], syntax]);
    for (const e of m.enumType ?? []) addEnum(e, fullName);
    for (const n of m.nestedType ?? []) addMessage(n, fullName, syntax);
  };
  for (const f of set.file ?? []) {
    const syntax = f.syntax || "proto2";
    for (const e of f.enumType ?? []) addEnum(e, f.package ?? "");
    for (const m of f.messageType ?? []) addMessage(m, f.package ?? "", syntax);
  }
  for (const [msg, fields, syntax] of pending) {
    for (const fp of fields) {
      const field = resolveField(fp, syntax, messages, enums);
      msg.fields.push(field);
      msg.byNumber.set(field.number, field);
    }
  }
  // Map fields need their entry messages' fields, so they are linked after every field is resolved.
  for (const msg of messages.values()) {
    for (const f of msg.fields) {
      if (f.repeated && f.message?.mapEntry) {
        const key = f.message.byNumber.get(1), value = f.message.byNumber.get(2);
        if (key && value) f.map = { key, value };
      }
    }
  }
  return messages;
}

const PACKABLE = /^(DOUBLE|FLOAT|U?INT(32|64)|SINT(32|64)|S?FIXED(32|64)|BOOL|ENUM)$/;

function resolveField(
  fp: FieldProto,
  syntax: string,
  messages: DescriptorPool,
  enums: Map<string, ProtoEnum>,
): ProtoField {
  const type = (fp.type ?? "").replace(/^TYPE_/, "");
  const repeated = fp.label === "LABEL_REPEATED";
  const typeName = (fp.typeName ?? "").replace(/^\./, "");
  const field: ProtoField = {
    name: fp.name,
    number: fp.number,
    type,
    repeated,
    packed: repeated && PACKABLE.test(type) && (fp.options?.packed ?? syntax !== "proto2"),
    presence: !repeated &&
      (syntax !== "proto3" || fp.proto3Optional === true || fp.oneofIndex !== undefined ||
        type === "MESSAGE" || type === "GROUP"),
    oneof: fp.oneofIndex,
  };
  if (type === "MESSAGE" || type === "GROUP") {
    field.message = messages.get(typeName);
    if (!field.message) throw new Error(`unresolved message type '${typeName}' of field '${fp.name}'`);
  } else if (type === "ENUM") {
    field.enumType = enums.get(typeName);
    if (!field.enumType) throw new Error(`unresolved enum type '${typeName}' of field '${fp.name}'`);
  }
  return field;
}

const pools = new Map<string, DescriptorPool>();

/** Reads and decodes the descriptor set file at `path` (again, so a compile sees the file as it is now). */
function loadPool(path: string): DescriptorPool {
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(path);
  } catch (e) {
    throw new Error(`Failed to open protobuf desc file '${JSON.stringify(path)}': ${ioMessage(e)}`);
  }
  let pool: DescriptorPool;
  try {
    pool = decodeDescriptorSet(bytes);
  } catch (e) {
    throw new Error(`Failed to parse protobuf desc file '${JSON.stringify(path)}': ${(e as Error).message}`);
  }
  pools.set(path, pool);
  return pool;
}

/**
 * The message type `name` (e.g. `package.Message`) of the descriptor set at `path`; throws VRL's message.
 * Compiling a program reloads the file (`reload`); calls then use what that compile read.
 */
export function messageDescriptor(path: string, name: string, reload = false): ProtoMessage {
  const pool = (reload ? undefined : pools.get(path)) ?? loadPool(path);
  const message = pool.get(name);
  if (!message) throw new Error(`The message type '${name}' could not be found in '${JSON.stringify(path)}'`);
  return message;
}

// Rust's io::Error rendering for the common cases.
function ioMessage(e: unknown): string {
  if (e instanceof Deno.errors.NotFound) return "No such file or directory (os error 2)";
  if (e instanceof Deno.errors.PermissionDenied) return "Permission denied (os error 13)";
  if (e instanceof Deno.errors.IsADirectory) return "Is a directory (os error 21)";
  return (e as Error).message;
}
