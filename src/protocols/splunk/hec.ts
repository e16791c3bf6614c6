/**
 * HEC request bodies → typed events. `/collector[/event]` takes a stream of JSON objects one after
 * another (not an array), each with `event` (a string, any JSON value or an object) and optional
 * `time` (epoch seconds with a fraction), `host`, `source`, `sourcetype`, `index` and `fields`
 * (indexed fields: flat string values or arrays of them). `/collector/raw` takes text, one event
 * per non-empty line. The query's `host`, `source`, `sourcetype`, `index` and `time` fill what an
 * event leaves out. Any fault rejects the whole request.
 */
import { HecCode, HecError } from "./errors.ts";
import { splitJsonStream } from "./json_stream.ts";
import { formatJsonText } from "../../common/json_text.ts";

/** One HEC event. */
export interface HecEvent {
  /** Epoch nanoseconds; null: the arrival time. */
  timeNs: bigint | null;
  host: string | null;
  source: string | null;
  sourcetype: string | null;
  /** The destination index (a table name); null: the request's table. */
  index: string | null;
  /** Indexed fields, values as text (a multi-value field is its JSON array). */
  fields: Record<string, string>;
  /** The event endpoint's `event`: text, or an object of fields. */
  event?: string | Record<string, unknown>;
  /** The raw endpoint's line. */
  message?: string;
}

/** What the query string supplies for events that leave it out. */
export interface HecDefaults {
  host: string | null;
  source: string | null;
  sourcetype: string | null;
  index: string | null;
  time: string | null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const MAX_NS = 9_223_372_036_854_775_807n; // the largest i64 of nanoseconds
const DECIMAL = /^(\d{1,20})(?:\.(\d*))?$/; // more digits than 20 cannot fit anyway

function text(body: Uint8Array): string {
  try {
    return utf8.decode(body);
  } catch {
    throw new HecError(HecCode.InvalidDataFormat, "Invalid data format: the body is not valid UTF-8");
  }
}

/** Epoch seconds (a number or numeric text, fraction allowed) → nanoseconds. */
export function parseEpochSeconds(v: unknown, what: string, eventNumber?: number): bigint {
  const s = typeof v === "number" || typeof v === "bigint"
    ? String(v)
    : typeof v === "string"
    ? v.trim()
    : null;
  const m = s === null ? null : DECIMAL.exec(s);
  const fraction = (m?.[2] ?? "").slice(0, 9).padEnd(9, "0");
  const ns = m ? BigInt(m[1]) * 1_000_000_000n + BigInt(fraction) : -1n;
  if (ns < 0n || ns > MAX_NS) {
    throw new HecError(
      HecCode.InvalidDataFormat,
      `Invalid data format: ${what} must be epoch seconds (e.g. 1700000000.123), got ${shown(v)}`,
      eventNumber,
    );
  }
  return ns;
}

function shown(v: unknown): string {
  const s = formatJsonText(v);
  return s.length > 100 ? s.slice(0, 100) + "…" : s;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function optionalString(o: Record<string, unknown>, key: string, fallback: string | null, n: number) {
  const v = o[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== "string") {
    throw new HecError(HecCode.InvalidDataFormat, `Invalid data format: '${key}' must be a string`, n);
  }
  return v;
}

function indexedFields(v: unknown, n: number): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (!isObject(v)) {
    throw new HecError(
      HecCode.IndexedFields,
      "Error in handling indexed fields: 'fields' must be an object",
      n,
    );
  }
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === "string") out[k] = x;
    else if (typeof x === "number" || typeof x === "bigint" || typeof x === "boolean") out[k] = String(x);
    else if (Array.isArray(x) && x.every((e) => typeof e !== "object" || e === null)) {
      out[k] = formatJsonText(x);
    } else {
      throw new HecError(
        HecCode.IndexedFields,
        `Error in handling indexed fields: field '${k}' must be a string or an array of strings`,
        n,
      );
    }
  }
  return out;
}

function eventValue(v: unknown, n: number): string | Record<string, unknown> {
  if (v === undefined || v === null) throw new HecError(HecCode.EventRequired, "Event field is required", n);
  if (v === "" || (isObject(v) && Object.keys(v).length === 0)) {
    throw new HecError(HecCode.EventBlank, "Event field cannot be blank", n);
  }
  if (typeof v === "string" || isObject(v)) return v;
  // A number, boolean or array is the event's text, so one column never holds two types.
  return formatJsonText(v);
}

function decodeEvent(v: unknown, n: number, d: HecDefaults, defaultTime: bigint | null): HecEvent {
  if (!isObject(v)) {
    throw new HecError(HecCode.InvalidDataFormat, `Invalid data format: event ${n} is not a JSON object`, n);
  }
  return {
    timeNs: v.time === undefined || v.time === null ? defaultTime : parseEpochSeconds(v.time, "'time'", n),
    host: optionalString(v, "host", d.host, n),
    source: optionalString(v, "source", d.source, n),
    sourcetype: optionalString(v, "sourcetype", d.sourcetype, n),
    index: optionalString(v, "index", d.index, n),
    fields: indexedFields(v.fields, n),
    event: eventValue(v.event, n),
  };
}

function defaultTime(d: HecDefaults): bigint | null {
  return d.time === null ? null : parseEpochSeconds(d.time, "the 'time' parameter");
}

/** Decodes an event-endpoint body (concatenated JSON objects); 400 with the HEC code of the fault. */
export function decodeHecEvents(body: Uint8Array, d: HecDefaults): HecEvent[] {
  const t = text(body);
  if (t.trim() === "") throw new HecError(HecCode.NoData, "No data");
  const time = defaultTime(d);
  return splitJsonStream(t).map((v, n) => decodeEvent(v, n, d, time));
}

/** Decodes a raw-endpoint body: each non-empty line is one event's `message`. */
export function decodeHecRaw(body: Uint8Array, d: HecDefaults): HecEvent[] {
  const lines = text(body).split("\n").map((l) => l.endsWith("\r") ? l.slice(0, -1) : l)
    .filter((l) => l.trim() !== "");
  if (lines.length === 0) throw new HecError(HecCode.NoData, "No data");
  const timeNs = defaultTime(d);
  return lines.map((message) => ({
    timeNs,
    host: d.host,
    source: d.source,
    sourcetype: d.sourcetype,
    index: d.index,
    fields: {},
    message,
  }));
}
