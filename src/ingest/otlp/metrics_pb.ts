/**
 * OTLP metrics (protobuf) straight into metric-engine writes: gauge and sum points are read from
 * the bytes into the keyed path's `pushNumber` (`metric_writes.ts`) without NumberDataPoint,
 * KeyValue, AnyValue or sample objects per point and without BigInt times; histograms, summaries
 * and exponential histograms are decoded by `pb_metrics.ts` and translated as before. What is
 * stored and answered is that of `decodeMetricsProto` + `otlpMetricsToWrites`; a test holds both
 * paths to the same writes and errors. Null when the request needs the series path (as
 * `otlpMetricsToWrites`).
 */
import {
  PbReader,
  readAnyValue,
  readKeyValue,
  readResource,
  readScope,
} from "../../protocols/otlp/pb_common.ts";
import { readData } from "../../protocols/otlp/pb_metrics.ts";
import type { AnyValue, KeyValue, Metric, Resource } from "../../protocols/otlp/model.ts";
import { emptyResource, emptyScope } from "../../protocols/otlp/model.ts";
import type { OtlpMetricOptions } from "./metric_options.ts";
import { keyedWrites, type OtlpMetricWrites } from "./metric_writes.ts";
import {
  NO_VALUE,
  numberMetricName,
  type PointsOut,
  resourceLabels,
  scopeBase,
  translateMetric,
} from "./metrics.ts";

const EMPTY: AnyValue = { type: "empty" };

/** A point's attribute, overwritten by the next point's (`push` keeps no attribute object). */
interface AttrSlot extends KeyValue {
  /** The slot's string value, reused: most attribute values are strings. */
  str: { type: "string"; value: string };
}

/** The attributes of the point being read: slots reused across points, a view per count. */
class PointAttrs {
  private slots: AttrSlot[] = [];
  private views: KeyValue[][] = [[]];
  count = 0;

  next(): AttrSlot {
    let slot = this.slots[this.count];
    if (slot === undefined) {
      this.slots.push(slot = { key: "", value: EMPTY, str: { type: "string", value: "" } });
    }
    this.count++;
    return slot;
  }

  /** The attributes read since the last `view`, as one array (the same one for the same count). */
  view(): KeyValue[] {
    const n = this.count;
    this.count = 0;
    while (this.views.length <= n) this.views.push(this.slots.slice(0, this.views.length));
    return this.views[n];
  }
}

/** Reads a `KeyValue` message into `slot`, as `readKeyValue` reads it. */
function readAttr(r: PbReader, slot: AttrSlot): void {
  const end = r.msgEnd();
  let key = "";
  let value = EMPTY;
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) key = r.str();
    else if (t === 18) value = readAttrValue(r, slot);
    else r.skip(t & 7);
  }
  r.close(end);
  slot.key = key;
  slot.value = value;
}

/** An `AnyValue`: a lone string value into the slot's string, anything else by `readAnyValue`. */
function readAttrValue(r: PbReader, slot: AttrSlot): AnyValue {
  const start = r.pos;
  const end = r.msgEnd();
  if (r.pos < end && r.buf[r.pos] === 10) {
    r.pos++;
    const s = r.str();
    if (r.pos === end) {
      slot.str.value = s;
      return slot.str;
    }
  }
  r.pos = start;
  return readAnyValue(r, 0);
}

const TWO32_MILLIS = 4294, TWO32_REST = 967296; // 2^32 = 4294 * 10^6 + 967296

/** A fixed64 of nanoseconds as whole milliseconds (floor), exact, without a BigInt. */
function readMillis(r: PbReader): number {
  const lo = r.fixed32(), hi = r.fixed32();
  const rest = hi * TWO32_REST + lo; // < 2^53
  let q = Math.floor(rest / 1e6);
  if (q * 1e6 > rest) q--;
  else if ((q + 1) * 1e6 <= rest) q++;
  return hi * TWO32_MILLIS + q;
}

/** What each point of a gauge or sum goes to. */
interface NumberTarget {
  out: PointsOut;
  name: string;
  base: Record<string, string>;
  escape: boolean;
  attrs: PointAttrs;
}

/** Reads a `NumberDataPoint` (as `pb_metrics.ts` does) into `to.out`; false when it has no value. */
function readNumberPoint(r: PbReader, to: NumberTarget): boolean {
  const end = r.msgEnd();
  const attrs = to.attrs;
  attrs.count = 0;
  let time = 0, value: number | null = null;
  while (r.pos < end) {
    const t = r.tag();
    switch (t) {
      case 58:
        readAttr(r, attrs.next());
        break;
      case 17:
        r.fixed64Number();
        break;
      case 25:
        time = readMillis(r);
        break;
      case 33:
        value = r.f64();
        break;
      case 49:
        value = r.sfixed64Number();
        break;
      case 64:
        r.uint32();
        break;
      default: // exemplars (5) and unknown fields
        r.skip(t & 7);
    }
  }
  r.close(end);
  const view = attrs.view();
  if (value === null) return false;
  to.out.pushNumber(to.name, to.base, view, to.escape, time, value);
  return true;
}

/** A Gauge (field 5) or Sum (field 7) message of `m`: its points into `out`. */
function readNumberData(
  r: PbReader,
  field: number,
  m: Metric,
  base: Record<string, string>,
  opts: OtlpMetricOptions,
  escape: boolean,
  out: PointsOut,
  attrs: PointAttrs,
): void {
  const end = r.msgEnd();
  const start = r.pos;
  // The name of a sum depends on its monotonicity, which may follow the points.
  let temporality = 0, monotonic = false;
  while (r.pos < end) {
    const t = r.tag();
    if (t === 16 && field === 7) temporality = r.uint32();
    else if (t === 24 && field === 7) monotonic = r.bool();
    else r.skip(t & 7);
  }
  r.close(end);
  const sum = field === 7;
  const name = numberMetricName(out, m, sum, monotonic, temporality, opts);
  const to: NumberTarget = { out, name, base, escape, attrs };
  let missing = 0;
  r.pos = start;
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) {
      if (!readNumberPoint(r, to)) missing++;
    } else r.skip(t & 7);
  }
  out.reject(missing, NO_VALUE);
}

/** A `Metric` message: its name and unit first (they name the series), then its data. */
function readMetric(
  r: PbReader,
  base: Record<string, string>,
  opts: OtlpMetricOptions,
  escape: boolean,
  out: PointsOut,
  attrs: PointAttrs,
): void {
  const end = r.msgEnd();
  const m: Metric = { name: "", description: "", unit: "", data: null, metadata: [] };
  let dataAt = -1, dataField = 0;
  while (r.pos < end) {
    const t = r.tag();
    switch (t) {
      case 10:
        m.name = r.str();
        break;
      case 18:
        m.description = r.str();
        break;
      case 26:
        m.unit = r.str();
        break;
      case 42: // gauge
      case 58: // sum
      case 74: // histogram
      case 82: // exponential_histogram
      case 90: // summary
        // The last data field wins (as in `pb_metrics.ts`); an earlier one is still checked.
        if (dataAt >= 0) {
          const at = r.pos;
          r.pos = dataAt;
          readData(r, dataField);
          r.pos = at;
        }
        dataAt = r.pos;
        dataField = t >>> 3;
        r.skip(2);
        break;
      case 98:
        readKeyValue(r);
        break;
      default:
        r.skip(t & 7);
    }
  }
  r.close(end);
  if (dataAt < 0) return;
  r.pos = dataAt;
  if (dataField === 5 || dataField === 7) readNumberData(r, dataField, m, base, opts, escape, out, attrs);
  else {
    m.data = readData(r, dataField);
    translateMetric(out, m, base, opts, escape);
  }
  r.pos = end;
}

/** A `ScopeMetrics` message: its scope (and schema URL) first, then its metrics. */
function readScopeMetrics(
  r: PbReader,
  resLabels: Record<string, string>,
  opts: OtlpMetricOptions,
  escape: boolean,
  out: PointsOut,
  attrs: PointAttrs,
): void {
  const end = r.msgEnd();
  const start = r.pos;
  let scope = emptyScope(), schemaUrl = "";
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) scope = readScope(r);
    else if (t === 26) schemaUrl = r.str();
    else r.skip(t & 7);
  }
  r.close(end);
  const base = scopeBase(resLabels, scope, schemaUrl, opts, escape);
  r.pos = start;
  while (r.pos < end) {
    const t = r.tag();
    if (t === 18) readMetric(r, base, opts, escape, out, attrs);
    else r.skip(t & 7);
  }
}

/** A `ResourceMetrics` message: its resource first, then its scopes. */
function readResourceMetrics(
  r: PbReader,
  opts: OtlpMetricOptions,
  escape: boolean,
  out: PointsOut,
  attrs: PointAttrs,
): void {
  const end = r.msgEnd();
  const start = r.pos;
  let resource: Resource = emptyResource();
  while (r.pos < end) {
    const t = r.tag();
    if (t === 10) resource = readResource(r);
    else if (t === 26) r.str();
    else r.skip(t & 7);
  }
  r.close(end);
  const resLabels = resourceLabels(resource, opts, escape);
  r.pos = start;
  while (r.pos < end) {
    const t = r.tag();
    if (t === 18) readScopeMetrics(r, resLabels, opts, escape, out, attrs);
    else r.skip(t & 7);
  }
}

/**
 * The bytes of an `ExportMetricsServiceRequest` as keyed metric-engine writes (throws
 * ProtoDecodeError when malformed); null when the request needs the series path.
 */
export function otlpMetricsProtoToWrites(body: Uint8Array, opts: OtlpMetricOptions): OtlpMetricWrites | null {
  const escape = opts.translationStrategy.startsWith("UnderscoreEscaping");
  const attrs = new PointAttrs();
  return keyedWrites((out) => {
    const r = new PbReader(body);
    while (r.more()) {
      const t = r.tag();
      if (t === 10) readResourceMetrics(r, opts, escape, out, attrs);
      else r.skip(t & 7);
    }
  });
}
