/**
 * A protobuf `ExportLogsServiceRequest` straight into the direct model's columns (no pipeline, no
 * extracted keys: the usual case). Decoding to the typed model first made a LogRecord, a KeyValue
 * and an AnyValue an attribute only to turn them into text: here the fields land in their columns
 * as they are read, attribute values as JSON text. It reads and rejects exactly what
 * `decodeLogsProto` does, and its batch equals `otlpLogsToBatch` of that decode
 * (test/telemetry_http/otlp_logs_direct_test.ts holds them together). Nanosecond times stay BigInt:
 * real ones are past 2^53.
 */
import type { ColumnarBatch, Value } from "../../common/rows.ts";
import {
  HexIdMemo,
  PbReader,
  readAnyValue,
  readHexId,
  readResource,
  readScope,
} from "../../protocols/otlp/pb_common.ts";
import { attributesJson, bodyText, objectJson, quote, valueJson } from "./attributes.ts";
import { logBatch } from "./logs.ts";

/** Reused buffers of one record's attributes (keys and their values' JSON text). */
interface Scratch {
  keys: string[];
  vals: string[];
  traceIds: HexIdMemo;
  spanIds: HexIdMemo;
}

/** Decodes a protobuf logs request into the direct model's batch (throws ProtoDecodeError when malformed). */
export function logsProtoToBatch(body: Uint8Array, table: string): ColumnarBatch {
  const r = new PbReader(body);
  const cols: Value[][] = Array.from({ length: 14 }, () => []);
  const scratch: Scratch = { keys: [], vals: [], traceIds: new HexIdMemo(), spanIds: new HexIdMemo() };
  while (r.more()) {
    const t = r.tag();
    if (t === 10) readResourceLogs(r, cols, scratch);
    else r.skip(t & 7);
  }
  return logBatch(table, cols, cols[0].length);
}

function readResourceLogs(r: PbReader, cols: Value[][], scratch: Scratch): void {
  const end = r.msgEnd();
  const from = cols[0].length;
  let resJson = "{}", schemaUrl = "";
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) resJson = attributesJson(readResource(r).attributes);
    else if (t === 18) readScopeLogs(r, cols, scratch);
    else if (t === 26) schemaUrl = r.str();
    else r.skip(t & 7);
  }
  r.close(end);
  // the resource (and its URL) may come after its records: its columns are filled at the end
  for (let i = from, n = cols[0].length; i < n; i++) {
    cols[12].push(resJson);
    cols[13].push(schemaUrl);
  }
}

function readScopeLogs(r: PbReader, cols: Value[][], scratch: Scratch): void {
  const end = r.msgEnd();
  const from = cols[0].length;
  let name = "", version = "", attrs = "{}", schemaUrl = "";
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) {
      const s = readScope(r);
      name = s.name;
      version = s.version;
      attrs = attributesJson(s.attributes);
    } else if (t === 18) readLogRecord(r, cols, scratch);
    else if (t === 26) schemaUrl = r.str();
    else r.skip(t & 7);
  }
  r.close(end);
  for (let i = from, n = cols[0].length; i < n; i++) {
    cols[8].push(name);
    cols[9].push(version);
    cols[10].push(attrs);
    cols[11].push(schemaUrl);
  }
}

function readLogRecord(r: PbReader, cols: Value[][], scratch: Scratch): void {
  const end = r.msgEnd();
  let time = 0n, observed = 0n, severityNumber = 0, flags = 0;
  let severityText = "", body = "", traceId = "", spanId = "";
  let n = 0;
  while (r.pos < end) {
    const t = r.tag();
    switch (t) {
      case 9:
        time = r.fixed64();
        break;
      case 89:
        observed = r.fixed64();
        break;
      case 16:
        severityNumber = r.uint32();
        break;
      case 26:
        severityText = r.str();
        break;
      case 42:
        body = readBodyText(r);
        break;
      case 50:
        n = readAttribute(r, scratch, n);
        break;
      case 56:
        r.uint32();
        break;
      case 69:
        flags = r.fixed32();
        break;
      case 74:
        traceId = readHexId(r, scratch.traceIds);
        break;
      case 82:
        spanId = readHexId(r, scratch.spanIds);
        break;
      case 98:
        r.str();
        break;
      default:
        r.skip(t & 7);
    }
  }
  r.close(end);
  cols[0].push(time !== 0n ? time : observed);
  cols[1].push(traceId);
  cols[2].push(spanId);
  cols[3].push(severityText);
  cols[4].push(severityNumber);
  cols[5].push(body);
  cols[6].push(objectJson(scratch.keys, scratch.vals, n));
  cols[7].push(flags);
}

/**
 * Whether the AnyValue message at the reader (its length next) is one field of tag `t` filling it
 * all; if so the reader is left at that field's value, else where it was.
 */
function soleField(r: PbReader, t: number): boolean {
  const start = r.pos, end = r.msgEnd();
  if (r.pos < end && r.buf[r.pos] === t) {
    r.pos++;
    const valueAt = r.pos;
    r.skip(t & 7);
    if (r.pos === end) {
      r.pos = valueAt;
      return true;
    }
  }
  r.pos = start;
  return false;
}

/** A body as bodyText shows it: a lone string as it is, anything else through the AnyValue. */
function readBodyText(r: PbReader): string {
  return soleField(r, 10) ? r.uniqueStr() : bodyText(readAnyValue(r, 0));
}

/** An attribute value as JSON text: lone strings and ints directly, anything else through the AnyValue. */
function readValueJson(r: PbReader): string {
  if (soleField(r, 10)) return quote(r.str());
  if (soleField(r, 24)) return String(r.int64Exact());
  return valueJson(readAnyValue(r, 0));
}

/** Reads a KeyValue into the scratch's n-th slot; the new count. */
function readAttribute(r: PbReader, scratch: Scratch, n: number): number {
  const end = r.msgEnd();
  let key = "", val = "null";
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) key = r.str();
    else if (t === 18) val = readValueJson(r);
    else r.skip(t & 7);
  }
  r.close(end);
  scratch.keys[n] = key;
  scratch.vals[n] = val;
  return n + 1;
}
