/** Protobuf `ExportLogsServiceRequest` → the typed model (proto/logs.proto for field numbers). */
import type { ExportLogsRequest, LogRecord, ResourceLogs, ScopeLogs } from "./model.ts";
import { emptyResource, emptyScope } from "./model.ts";
import { PbReader, readAnyValue, readHexId, readKeyValue, readResource, readScope } from "./pb_common.ts";

/** Decodes the bytes of an `ExportLogsServiceRequest` (throws ProtoDecodeError when malformed). */
export function decodeLogsProto(body: Uint8Array): ExportLogsRequest {
  const r = new PbReader(body);
  const out: ExportLogsRequest = { resourceLogs: [] };
  while (r.more()) {
    const t = r.tag();
    if (t === 10) out.resourceLogs.push(readResourceLogs(r));
    else r.skip(t & 7);
  }
  return out;
}

function readResourceLogs(r: PbReader): ResourceLogs {
  const end = r.msgEnd();
  const rl: ResourceLogs = { resource: emptyResource(), scopeLogs: [], schemaUrl: "" };
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) rl.resource = readResource(r);
    else if (t === 18) rl.scopeLogs.push(readScopeLogs(r));
    else if (t === 26) rl.schemaUrl = r.str();
    else r.skip(t & 7);
  }
  r.close(end);
  return rl;
}

function readScopeLogs(r: PbReader): ScopeLogs {
  const end = r.msgEnd();
  const sl: ScopeLogs = { scope: emptyScope(), logRecords: [], schemaUrl: "" };
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) sl.scope = readScope(r);
    else if (t === 18) sl.logRecords.push(readLogRecord(r));
    else if (t === 26) sl.schemaUrl = r.str();
    else r.skip(t & 7);
  }
  r.close(end);
  return sl;
}

function readLogRecord(r: PbReader): LogRecord {
  const end = r.msgEnd();
  const l: LogRecord = {
    timeUnixNano: 0n,
    observedTimeUnixNano: 0n,
    severityNumber: 0,
    severityText: "",
    body: null,
    attributes: [],
    droppedAttributesCount: 0,
    flags: 0,
    traceId: "",
    spanId: "",
    eventName: "",
  };
  while (r.pos < end) {
    const t = r.tag();
    switch (t) {
      case 9:
        l.timeUnixNano = r.fixed64();
        break;
      case 89:
        l.observedTimeUnixNano = r.fixed64();
        break;
      case 16:
        l.severityNumber = r.uint32();
        break;
      case 26:
        l.severityText = r.str();
        break;
      case 42:
        l.body = readAnyValue(r, 0);
        break;
      case 50:
        l.attributes.push(readKeyValue(r));
        break;
      case 56:
        l.droppedAttributesCount = r.uint32();
        break;
      case 69:
        l.flags = r.fixed32();
        break;
      case 74:
        l.traceId = readHexId(r);
        break;
      case 82:
        l.spanId = readHexId(r);
        break;
      case 98:
        l.eventName = r.str();
        break;
      default:
        r.skip(t & 7);
    }
  }
  r.close(end);
  return l;
}
