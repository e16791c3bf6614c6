/** Protobuf `ExportTraceServiceRequest` → the typed model (proto/trace.proto for field numbers). */
import type { ExportTraceRequest, ResourceSpans, ScopeSpans, Span, SpanEvent, SpanLink } from "./model.ts";
import { emptyResource, emptyScope } from "./model.ts";
import { HexIdMemo, PbReader, readHexId, readKeyValue, readResource, readScope } from "./pb_common.ts";

/** Decodes the bytes of an `ExportTraceServiceRequest` (throws ProtoDecodeError when malformed). */
export function decodeTracesProto(body: Uint8Array): ExportTraceRequest {
  const r = new PbReader(body);
  const out: ExportTraceRequest = { resourceSpans: [] };
  const ids: SpanIds = { trace: new HexIdMemo(), parent: new HexIdMemo() };
  while (r.more()) {
    const t = r.tag();
    if (t === 10) out.resourceSpans.push(readResourceSpans(r, ids));
    else r.skip(t & 7);
  }
  return out;
}

/** The ids consecutive spans share (their trace's, their parent's). */
interface SpanIds {
  trace: HexIdMemo;
  parent: HexIdMemo;
}

function readResourceSpans(r: PbReader, ids: SpanIds): ResourceSpans {
  const end = r.msgEnd();
  const rs: ResourceSpans = { resource: emptyResource(), scopeSpans: [], schemaUrl: "" };
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) rs.resource = readResource(r);
    else if (t === 18) rs.scopeSpans.push(readScopeSpans(r, ids));
    else if (t === 26) rs.schemaUrl = r.str();
    else r.skip(t & 7);
  }
  r.close(end);
  return rs;
}

function readScopeSpans(r: PbReader, ids: SpanIds): ScopeSpans {
  const end = r.msgEnd();
  const ss: ScopeSpans = { scope: emptyScope(), spans: [], schemaUrl: "" };
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) ss.scope = readScope(r);
    else if (t === 18) ss.spans.push(readSpan(r, ids));
    else if (t === 26) ss.schemaUrl = r.str();
    else r.skip(t & 7);
  }
  r.close(end);
  return ss;
}

function readSpan(r: PbReader, ids: SpanIds): Span {
  const end = r.msgEnd();
  const s: Span = {
    traceId: "",
    spanId: "",
    traceState: "",
    parentSpanId: "",
    flags: 0,
    name: "",
    kind: 0,
    startTimeUnixNano: 0n,
    endTimeUnixNano: 0n,
    attributes: [],
    droppedAttributesCount: 0,
    events: [],
    droppedEventsCount: 0,
    links: [],
    droppedLinksCount: 0,
    status: { code: 0, message: "" },
  };
  while (r.pos < end) {
    const t = r.tag();
    switch (t) {
      case 10:
        s.traceId = readHexId(r, ids.trace);
        break;
      case 18:
        s.spanId = readHexId(r);
        break;
      case 26:
        s.traceState = r.str();
        break;
      case 34:
        s.parentSpanId = readHexId(r, ids.parent);
        break;
      case 133: // flags = 16, fixed32
        s.flags = r.fixed32();
        break;
      case 42:
        s.name = r.str();
        break;
      case 48:
        s.kind = r.uint32();
        break;
      case 57:
        s.startTimeUnixNano = r.fixed64();
        break;
      case 65:
        s.endTimeUnixNano = r.fixed64();
        break;
      case 74:
        s.attributes.push(readKeyValue(r));
        break;
      case 80:
        s.droppedAttributesCount = r.uint32();
        break;
      case 90:
        s.events.push(readEvent(r));
        break;
      case 96:
        s.droppedEventsCount = r.uint32();
        break;
      case 106:
        s.links.push(readLink(r));
        break;
      case 112:
        s.droppedLinksCount = r.uint32();
        break;
      case 122:
        s.status = readStatus(r);
        break;
      default:
        r.skip(t & 7);
    }
  }
  r.close(end);
  return s;
}

function readEvent(r: PbReader): SpanEvent {
  const end = r.msgEnd();
  const e: SpanEvent = { timeUnixNano: 0n, name: "", attributes: [], droppedAttributesCount: 0 };
  while (r.pos < end) {
    const t = r.tag();
    if (t === 9) e.timeUnixNano = r.fixed64();
    else if (t === 18) e.name = r.str();
    else if (t === 26) e.attributes.push(readKeyValue(r));
    else if (t === 32) e.droppedAttributesCount = r.uint32();
    else r.skip(t & 7);
  }
  r.close(end);
  return e;
}

function readLink(r: PbReader): SpanLink {
  const end = r.msgEnd();
  const l: SpanLink = {
    traceId: "",
    spanId: "",
    traceState: "",
    attributes: [],
    droppedAttributesCount: 0,
    flags: 0,
  };
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) l.traceId = readHexId(r);
    else if (t === 18) l.spanId = readHexId(r);
    else if (t === 26) l.traceState = r.str();
    else if (t === 34) l.attributes.push(readKeyValue(r));
    else if (t === 40) l.droppedAttributesCount = r.uint32();
    else if (t === 53) l.flags = r.fixed32();
    else r.skip(t & 7);
  }
  r.close(end);
  return l;
}

function readStatus(r: PbReader): { code: number; message: string } {
  const end = r.msgEnd();
  const s = { code: 0, message: "" };
  while (r.pos < end) {
    const t = r.tag();
    if (t === 18) s.message = r.str();
    else if (t === 24) s.code = r.uint32();
    else r.skip(t & 7);
  }
  r.close(end);
  return s;
}
