/**
 * The `transform` section (reference §7): compiled into typed columns with index options,
 * `default`/`on_failure`, and the time-index checks; `produceCell` computes one cell (§7.4).
 */
import type { DataType, Value } from "../src/common/rows.ts";
import { indexOptions } from "../src/storage/column_index.ts";
import { coerce, CoerceFailure, type OnFailure, zeroValue } from "./coerce.ts";
import { type FieldSpec, parseFieldSpec } from "./config.ts";
import { compileError, execError, type YamlLocation } from "./errors.ts";
import { type ColumnIndex, type PipelineColumn, PROTO_TYPE_NAME, timestampCell } from "./types.ts";
import { keyString, nodeText, type YNode } from "./yaml_doc.ts";
import { timestampType, unitOfType } from "../src/common/time_unit.ts";

/** One output column of the transform section. */
export interface TransformColumn {
  column: PipelineColumn;
  input: string;
  onFailure: OnFailure;
  defaultValue?: Value;
  timeIndex: boolean;
  /** Index of the transform item this column came from. */
  group: number;
}

const TYPE_WORDS: Record<string, DataType> = {
  int8: "Int8",
  int16: "Int16",
  int32: "Int32",
  int64: "Int64",
  uint8: "UInt8",
  uint16: "UInt16",
  uint32: "UInt32",
  uint64: "UInt64",
  float32: "Float32",
  float64: "Float64",
  boolean: "Boolean",
  string: "String",
  json: "Json",
};
const RESOLUTION_UNITS: Record<string, "s" | "ms" | "us" | "ns"> = {
  nanosecond: "ns",
  nano: "ns",
  ns: "ns",
  microsecond: "us",
  micro: "us",
  us: "us",
  millisecond: "ms",
  milli: "ms",
  ms: "ms",
  second: "s",
  sec: "s",
  s: "s",
};

/** Parses a transform `type` string (§7.1). */
function parseTransformType(text: string, loc: YamlLocation): DataType {
  const comma = text.indexOf(",");
  const word = (comma < 0 ? text : text.slice(0, comma)).toLowerCase();
  if (word === "timestamp" || word === "epoch" || word === "time") {
    if (comma < 0) return "TimestampNanosecond";
    const res = text.slice(comma + 1).trim();
    const unit = Object.hasOwn(RESOLUTION_UNITS, res) ? RESOLUTION_UNITS[res] : undefined;
    if (!unit) {
      return compileError(
        `Invalid resolution: '${res}'. Available resolutions: nanosecond,nano,ns,microsecond,micro,us,millisecond,milli,ms,second,sec,s`,
        loc,
      );
    }
    return timestampType(unit);
  }
  const t = Object.hasOwn(TYPE_WORDS, word) ? TYPE_WORDS[word] : undefined;
  if (!t) return compileError(`Failed to parse type: '${text}'`, loc);
  return t;
}

interface IndexChoice {
  kind?: "time" | "tag" | "inverted" | "fulltext" | "skipping";
  options?: YNode & { t: "map" };
}

function parseIndex(n: YNode | undefined, loc: YamlLocation): IndexChoice {
  if (!n || n.t === "null") return {};
  let typeNode: YNode | undefined = n;
  let options: (YNode & { t: "map" }) | undefined;
  if (n.t === "map") {
    typeNode = undefined;
    for (const p of n.pairs) {
      const k = keyString(p);
      if (k === "type") typeNode = p.value;
      else if (k === "options") {
        if (p.value.t !== "map") return compileError("Transform index `options` must be a map", loc);
        options = p.value;
      } else return compileError(`Unsupported field in transform index config: ${nodeText(p.key)}`, loc);
    }
    if (!typeNode) return compileError("Transform index `type` must be set.", loc);
  }
  const v = nodeText(typeNode);
  const kinds: Record<string, IndexChoice["kind"]> = {
    time: "time",
    timestamp: "time",
    tag: "tag",
    inverted: "inverted",
    fulltext: "fulltext",
    skipping: "skipping",
  };
  const kind = typeNode.t === "str" && Object.hasOwn(kinds, v) ? kinds[v] : undefined;
  if (!kind) return compileError(`Unsupported index type: ${v}`, loc);
  if (options) {
    for (const p of options.pairs) {
      if (!["str", "bool", "int", "float"].includes(p.value.t)) {
        return compileError(
          `Transform index option \`index.options.${
            nodeText(p.key)
          }\` must be a string, boolean, integer, or real scalar`,
          loc,
        );
      }
    }
  }
  return { kind, options };
}

function transformIndexOptions(
  kind: "fulltext" | "skipping",
  opts: (YNode & { t: "map" }) | undefined,
  loc: YamlLocation,
) {
  const given: Record<string, string> = {};
  for (const p of opts?.pairs ?? []) given[nodeText(p.key)] = nodeText(p.value);
  try {
    return indexOptions(kind, given);
  } catch (e) {
    return compileError((e as Error).message, loc);
  }
}

function parseDefault(n: YNode, t: DataType, loc: YamlLocation): Value | undefined {
  if (n.t !== "str" && n.t !== "int" && n.t !== "float" && n.t !== "bool") return undefined;
  if (unitOfType(t) || t === "Json" || t === "Binary") {
    return compileError(`Default value not unsupported for type ${t}`, loc);
  }
  const text = nodeText(n);
  try {
    return coerce(n.t === "str" ? n.v : n.v, t, "fail");
  } catch {
    return compileError(`Failed to parse ${PROTO_TYPE_NAME[t].toLowerCase()}: ${text}`, loc);
  }
}

/** The keys of one transform element, as written. */
interface TransformKeys {
  fields?: FieldSpec[];
  typeText?: string;
  indexNode?: YNode;
  tag: boolean;
  defaultNode?: YNode;
  onFailure: OnFailure;
}

function readTransformKeys(item: YNode & { t: "map" }, loc: YamlLocation): TransformKeys {
  const keys: TransformKeys = { tag: false, onFailure: "fail" };
  for (const p of item.pairs) {
    const k = keyString(p);
    const kloc = { ...loc, key: k, line: p.value.line || loc.line };
    if (k === "field" && p.value.t !== "null") keys.fields = [parseFieldSpec(p.value, "field", kloc)];
    else if (k === "fields" && p.value.t !== "null") {
      if (p.value.t !== "seq") return compileError("Field fields must be a list", kloc);
      keys.fields = p.value.items.map((i) => parseFieldSpec(i, "fields", kloc));
    } else if (k === "type" && p.value.t !== "null") {
      if (p.value.t !== "str") return compileError(`Failed to parse type: '${nodeText(p.value)}'`, kloc);
      keys.typeText = p.value.v;
    } else if (k === "index") keys.indexNode = p.value;
    else if (k === "tag") {
      if (p.value.t !== "bool" && p.value.t !== "null") {
        return compileError("Field tag must be a boolean", kloc);
      }
      keys.tag = p.value.t === "bool" && p.value.v;
    } else if (k === "default") keys.defaultNode = p.value;
    else if (k === "on_failure" && p.value.t !== "null") {
      const v = nodeText(p.value);
      if (v !== "ignore" && v !== "default") {
        return compileError(`Invalid transform on_failure value: ${v}`, kloc);
      }
      keys.onFailure = v;
    }
  }
  return keys;
}

/** The column index an `index:` asks for (time and tag are semantics, not indexes). */
function columnIndexOf(
  index: ReturnType<typeof parseIndex>,
  type: DataType,
  loc: YamlLocation,
): ColumnIndex | undefined {
  if (index.kind === "time" || index.kind === "tag" || index.kind === "inverted") {
    if (index.options) {
      return compileError(`Index type \`${index.kind}\` does not support options in pipeline config`, loc);
    }
    return index.kind === "inverted" ? { kind: "inverted", options: {} } : undefined;
  }
  if (index.kind === "fulltext" || index.kind === "skipping") {
    if (index.kind === "fulltext" && type !== "String") {
      return compileError(
        `Index \`fulltext\` only supports STRING columns, but got ${PROTO_TYPE_NAME[type]}`,
        loc,
      );
    }
    return { kind: index.kind, options: transformIndexOptions(index.kind, index.options, loc) };
  }
  return undefined;
}

/** The columns of one transform element (one per field). */
function compileTransform(item: YNode, group: number, timeCols: string[]): TransformColumn[] {
  const loc: YamlLocation = { processor: "transform", line: item.line || undefined };
  if (item.t !== "map") return compileError("Transform element must be a map", loc);
  const { fields, typeText, indexNode, tag, defaultNode, ...rest } = readTransformKeys(item, loc);
  let onFailure = rest.onFailure;
  if (!fields || fields.length === 0) return compileError("Transform fields must be set.", loc);
  const names = fields.map((f) => f.target);
  if (typeText === undefined) return compileError(`Transform [${names.join(", ")}] type MUST BE set.`, loc);
  const type = parseTransformType(typeText, { ...loc, key: "type" });
  const index = parseIndex(indexNode, { ...loc, key: "index" });
  const columnIndex = columnIndexOf(index, type, { ...loc, key: "index" });
  let defaultValue: Value | undefined;
  if (defaultNode) {
    defaultValue = parseDefault(defaultNode, type, { ...loc, key: "default" });
    if (defaultValue !== undefined) onFailure = "default";
  }
  const isTime = index.kind === "time";
  if (isTime) {
    if (fields.length > 1) {
      return compileError(
        `Illegal to set multiple timestamp Index columns, please set only one: ${names.join(", ")}`,
        loc,
      );
    }
    timeCols.push(names[0]);
  }
  const semantic = isTime ? "TIMESTAMP" : tag || index.kind === "tag" ? "TAG" : "FIELD";
  return fields.map((f) => {
    const column: PipelineColumn = { name: f.target, type, semantic };
    if (columnIndex) column.index = columnIndex;
    return { column, input: f.input, onFailure, defaultValue, timeIndex: isTime, group };
  });
}

/** Column names must be unique across transforms (duplicates inside one list go unnoticed). */
function checkUniqueNames(out: TransformColumn[], items: YNode[]): void {
  const owner = new Map<string, number>();
  const dups = new Set<string>();
  for (const tc of out) {
    const prev = owner.get(tc.column.name);
    if (prev !== undefined && prev !== tc.group) dups.add(tc.column.name);
    else owner.set(tc.column.name, tc.group);
  }
  if (dups.size === 0) return;
  const dupLine = items[out.findLast((tc) => dups.has(tc.column.name))!.group]?.line;
  compileError(`Column name must be unique, but got duplicated: ${[...dups].join(", ")}`, {
    processor: "transform",
    line: dupLine || undefined,
  });
}

/** Compiles the transform list; `version` decides whether a time index is mandatory. */
export function compileTransforms(items: YNode[], version: 1 | 2): TransformColumn[] {
  const timeCols: string[] = [];
  const out = items.flatMap((item, group) => compileTransform(item, group, timeCols));
  if (timeCols.length > 1 || (timeCols.length === 0 && version === 2)) {
    return compileError(
      `Transform must have exactly one field specified as timestamp Index, but got ${timeCols.length}: ${
        timeCols.join(", ")
      }`,
      { processor: "transform", line: items[0]?.line || undefined },
    );
  }
  checkUniqueNames(out, items);
  if (timeCols.length === 0) {
    out.push({
      column: { name: "greptime_timestamp", type: "TimestampNanosecond", semantic: "TIMESTAMP" },
      input: "greptime_timestamp",
      onFailure: "default",
      timeIndex: true,
      group: -1,
    });
  }
  return out;
}

let lastMs = -1;
let lastNs = 0n;
/** The current time in ns (one BigInt conversion per millisecond). */
export function nowNs(): bigint {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastNs = BigInt(ms) * 1_000_000n;
  }
  return lastNs;
}

/** Computes one transform cell from the entry (§7.4); throws per-entry errors. */
export function produceCell(tc: TransformColumn, entry: Record<string, unknown>): Value {
  let v = entry[tc.input];
  if (typeof v === "function") v = undefined; // an inherited Object.prototype member, not data
  if (v === undefined) {
    let out: Value = null;
    if (tc.onFailure === "default") {
      if (tc.defaultValue !== undefined) out = tc.defaultValue;
      else if (tc.timeIndex) out = timestampCell(nowNs(), unitOfType(tc.column.type)!);
    }
    if (out === null && tc.timeIndex) throw execError("Time index must be non null.");
    return out;
  }
  if (v === null) return null;
  try {
    return coerce(v, tc.column.type, tc.onFailure);
  } catch (e) {
    if (!(e instanceof CoerceFailure)) throw e;
    if (tc.onFailure === "ignore") return null;
    if (tc.onFailure === "default") return tc.defaultValue ?? zeroValue(tc.column.type);
    throw execError(e.message);
  }
}
