/**
 * OTLP values as the tables and pipelines see them: attributes as JSON text (Json columns),
 * values as plain JS (pipeline entries), a log body as a string, nanosecond times as RFC 3339.
 * JSON is written directly (not via JSON.stringify of a built object) so int64 stays exact and no
 * intermediate objects are made; of repeated keys the last wins, as a map would have it. Measured
 * on the OTLP logs bench's attributes (a string and an int): ~260 → ~110 ns a record, from quoting
 * keys once (they repeat across records) and plain strings without JSON.stringify.
 */
import type { AnyValue, KeyValue } from "../../protocols/otlp/model.ts";
import { hexOf } from "../../protocols/otlp/pb_common.ts";
import { rustF64 } from "./metric_names.ts";

/** Bytes as lowercase hex (how ids and bytes values are shown as text). */
export function hex(bytes: Uint8Array): string {
  return hexOf(bytes, 0, bytes.length);
}

function jsonNumber(v: number): string {
  return Number.isFinite(v) ? String(v) : "null";
}

/** Whether JSON.stringify would escape a character of `s` (quote, backslash, control, lone surrogate). */
function needsEscape(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

/** `s` as a JSON string, as JSON.stringify writes it. */
export function quote(s: string): string {
  return needsEscape(s) ? JSON.stringify(s) : '"' + s + '"';
}

/** Quoted attribute keys seen so far (bounded: past it, keys are quoted each time). */
const quotedKeys = new Map<string, string>();
const QUOTED_KEYS = 4096;

function quoteKey(key: string): string {
  let q = quotedKeys.get(key);
  if (q === undefined) {
    q = quote(key);
    if (quotedKeys.size < QUOTED_KEYS) quotedKeys.set(key, q);
  }
  return q;
}

/** An AnyValue as JSON text. */
export function valueJson(v: AnyValue): string {
  switch (v.type) {
    case "string":
      return quote(v.value);
    case "bool":
      return v.value ? "true" : "false";
    case "int":
      return String(v.value);
    case "double":
      return jsonNumber(v.value);
    case "bytes":
      return '"' + hex(v.value) + '"';
    case "array": {
      let s = "[";
      for (let i = 0; i < v.value.length; i++) s += (i === 0 ? "" : ",") + valueJson(v.value[i]);
      return s + "]";
    }
    case "kvlist":
      return attributesJson(v.value);
    case "empty":
      return "null";
  }
}

function hasDuplicateKeys(kvs: KeyValue[]): boolean {
  if (kvs.length < 2) return false;
  if (kvs.length <= 8) {
    for (let i = 1; i < kvs.length; i++) {
      for (let j = 0; j < i; j++) if (kvs[i].key === kvs[j].key) return true;
    }
    return false;
  }
  return new Set(kvs.map((kv) => kv.key)).size !== kvs.length;
}

/** Keeps the last of each key, in the order of first appearance. */
function lastWins(kvs: KeyValue[]): KeyValue[] {
  const m = new Map<string, KeyValue>();
  for (const kv of kvs) m.set(kv.key, kv);
  return [...m.values()];
}

/** Attributes as a JSON object text (`{}` when none). */
export function attributesJson(kvs: KeyValue[]): string {
  if (kvs.length === 0) return "{}";
  const list = hasDuplicateKeys(kvs) ? lastWins(kvs) : kvs;
  let s = "{" + quoteKey(list[0].key) + ":" + valueJson(list[0].value);
  for (let i = 1; i < list.length; i++) s += "," + quoteKey(list[i].key) + ":" + valueJson(list[i].value);
  return s + "}";
}

/**
 * The JSON object of keys[i] → vals[i] (JSON texts) for i < n, as attributesJson writes it: the
 * last of a repeated key wins, in the order of its first appearance. For a decoder that renders
 * values while it reads them (no KeyValue objects).
 */
export function objectJson(keys: string[], vals: string[], n: number): string {
  if (n === 0) return "{}";
  let dup = false;
  if (n > 8) dup = new Set(keys.slice(0, n)).size !== n;
  else for (let i = 1; i < n && !dup; i++) for (let j = 0; j < i; j++) if (keys[i] === keys[j]) dup = true;
  if (dup) {
    const m = new Map<string, string>();
    for (let i = 0; i < n; i++) m.set(keys[i], vals[i]);
    let s = "";
    for (const [k, v] of m) s += (s === "" ? "{" : ",") + quoteKey(k) + ":" + v;
    return s + "}";
  }
  let s = "{" + quoteKey(keys[0]) + ":" + vals[0];
  for (let i = 1; i < n; i++) s += "," + quoteKey(keys[i]) + ":" + vals[i];
  return s + "}";
}

/** An AnyValue as a plain JS value for a pipeline entry (bytes as hex, empty as null). */
export function valuePlain(v: AnyValue): unknown {
  switch (v.type) {
    case "string":
    case "bool":
    case "int":
    case "double":
      return v.value;
    case "bytes":
      return hex(v.value);
    case "array":
      return v.value.map(valuePlain);
    case "kvlist":
      return attributesPlain(v.value);
    case "empty":
      return null;
  }
}

/** Attributes as a plain object (last of a repeated key wins). */
export function attributesPlain(kvs: KeyValue[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const kv of kvs) o[kv.key] = valuePlain(kv.value);
  return o;
}

/** A log body as text: strings as they are, scalars as Rust displays them, structures as JSON. */
export function bodyText(v: AnyValue | null): string {
  if (v === null) return "";
  switch (v.type) {
    case "string":
      return v.value;
    case "bool":
      return v.value ? "true" : "false";
    case "int":
      return String(v.value);
    case "double":
      return rustF64(v.value);
    case "bytes":
      return hex(v.value);
    case "empty":
      return "";
    default:
      return valueJson(v);
  }
}

/** Nanoseconds since the epoch as RFC 3339 UTC with nine fractional digits. */
export function rfc3339Nanos(ns: bigint): string {
  let secs = ns / 1_000_000_000n;
  let frac = ns % 1_000_000_000n;
  if (frac < 0n) {
    secs -= 1n;
    frac += 1_000_000_000n;
  }
  const d = new Date(Number(secs) * 1000);
  if (Number.isNaN(d.getTime())) return String(ns);
  return d.toISOString().slice(0, 19) + "." + String(frac).padStart(9, "0") + "Z";
}
