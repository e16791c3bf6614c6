/**
 * Prometheus remote write 1.0 (`prometheus.WriteRequest`) and 2.0 (`io.prometheus.write.v2.Request`)
 * bodies → series of labels and samples. Content negotiation follows GreptimeDB (reference §6.9):
 * the version comes from `Content-Type`, the compression from `Content-Encoding`, and which mistakes
 * are 415 rather than 400 is kept exactly. Stale markers stay NaN with their payload (`isStaleNaN`).
 */

import protobuf from "protobufjs";
import { decodeSnappy, encodeSnappy } from "../codec/snappy.ts";
import { decodeZstd } from "../codec/zstd.ts";
import { ProtoDecodeError, ProtoReader } from "../codec/protobuf.ts";
import { invalidArguments, PetrelError, unsupportedMediaType } from "../common/errors.ts";
import { METRIC_TYPES } from "./proto/prometheus.ts";
import { isStaleSample, type Sample, type Series, STALE_HI, STALE_LO, STALE_NAN } from "../common/series.ts";

/** Metric metadata, from 1.0's `metadata` list or 2.0's per-series `metadata`. */
export interface RemoteMetadata {
  metric: string;
  type: (typeof METRIC_TYPES)[number];
  help: string;
  unit: string;
}

/** A decoded remote-write request. */
export interface RemoteWriteRequest {
  version: 1 | 2;
  series: Series[];
  metadata: RemoteMetadata[];
  /** Total samples over all series (for the 2.0 `…-Samples-Written` header). */
  sampleCount: number;
  /** Exemplars received (not stored; 2.0 reports them as written: 0). */
  exemplarCount: number;
}

/** Options of `decodeRemoteWrite`: the decompressed size cap and UTF-8 strictness of label values. */
export interface RemoteWriteOptions {
  limit: number;
  strict: boolean;
}

/** `Content-Type` / `Content-Encoding` as received (null or undefined when absent). */
export interface RemoteWriteHeaders {
  contentType?: string | null;
  contentEncoding?: string | null;
}

const STALE_BYTES = [2, 0, 0, 0, 0, 0, 0xf0, 0x7f];

/** Whether the 8 little-endian bytes at `at` are exactly Prometheus' staleness marker. */
function staleAt(buf: Uint8Array, at: number): boolean {
  for (let i = 0; i < 8; i++) if (buf[at + i] !== STALE_BYTES[i]) return false;
  return true;
}

function decodeError(why: string): PetrelError {
  return invalidArguments(`Failed to decode prometheus remote request: ${why}`);
}

function unsupportedMedia(message: string): PetrelError {
  return unsupportedMediaType(message);
}

/** The remote-write version a `Content-Type` asks for; anything unknown → 415. */
export function remoteWriteVersion(contentType: string | null | undefined): 1 | 2 {
  if (contentType === null || contentType === undefined || contentType.trim() === "") return 1;
  const [mime, ...params] = contentType.split(";");
  if (mime.trim().toLowerCase() !== "application/x-protobuf") {
    throw unsupportedMedia(`unsupported prometheus remote write content type: ${contentType}`);
  }
  let proto: string | undefined;
  for (const p of params) {
    const eq = p.indexOf("=");
    if (eq < 0) continue;
    if (p.slice(0, eq).trim().toLowerCase() !== "proto") continue;
    proto = p.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
  }
  if (proto === undefined || proto === "prometheus.WriteRequest") return 1;
  if (proto === "io.prometheus.write.v2.Request") return 2;
  throw unsupportedMedia(`unsupported prometheus remote write content type: ${contentType}`);
}

/** Decompresses a remote-write body per `Content-Encoding` (1.0 retries with the other codec). */
function decompress(body: Uint8Array, encoding: string | null | undefined, version: 1 | 2, limit: number) {
  const enc = encoding?.trim().toLowerCase() ?? "";
  if (version === 2 && enc !== "snappy" && enc !== "zstd") {
    throw unsupportedMedia(
      "unsupported prometheus remote write content encoding: only snappy and zstd are supported",
    );
  }
  const first = enc === "zstd" ? decodeZstd : decodeSnappy;
  try {
    return first(body, limit);
  } catch (e) {
    // vmagent may send zstd under a snappy label (and back); 2.0 senders are trusted to label it.
    if (version === 2 || (e instanceof PetrelError && e.reason === "too_large")) throw e;
    try {
      return (first === decodeZstd ? decodeSnappy : decodeZstd)(body, limit);
    } catch {
      throw e;
    }
  }
}

/**
 * Decodes a remote-write body (compressed as the headers say) into series.
 * 415 for an unsupported content type/encoding, 413 past `limit`, 400 for anything malformed.
 */
export function decodeRemoteWrite(
  body: Uint8Array,
  headers: RemoteWriteHeaders,
  opts: RemoteWriteOptions,
): RemoteWriteRequest {
  const version = remoteWriteVersion(headers.contentType);
  const raw = decompress(body, headers.contentEncoding, version, opts.limit);
  try {
    return version === 1 ? decodeV1(raw, opts.strict) : decodeV2(raw, opts.strict);
  } catch (e) {
    if (e instanceof ProtoDecodeError) throw decodeError(e.message);
    throw e;
  }
}

const validNames = new Set<string>();

/** Checks a label name against `[A-Za-z_][A-Za-z0-9_]*`; a bad one is a 400. */
export function validateLabelName(name: string): void {
  if (validNames.has(name)) return;
  let ok = name.length > 0;
  for (let i = 0; ok && i < name.length; i++) {
    const c = name.charCodeAt(i);
    ok = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (i > 0 && c >= 48 && c <= 57);
  }
  if (!ok) throw invalidArguments(`Invalid label name: \`${name}\``);
  if (validNames.size > 100_000) validNames.clear();
  validNames.add(name);
}

/** Sets a label after validating its name (a plain assignment would turn `__proto__` into a prototype). */
export function setLabel(labels: Record<string, string>, name: string, value: string): void {
  validateLabelName(name);
  // `__proto__` is a valid label name; a plain assignment would set the prototype instead.
  if (name === "__proto__") Object.defineProperty(labels, name, { value, enumerable: true, writable: true });
  else labels[name] = value;
}

function readSamples(r: ProtoReader, end: number, out: Sample[]): void {
  let value = 0;
  let timestampMs = 0;
  let stale = false;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === 9) {
      stale = staleAt(r.buf, r.pos);
      value = r.double();
    } else if (tag === 16) timestampMs = r.int64();
    else r.skip(tag & 7);
  }
  if (r.pos !== end) throw new ProtoDecodeError("sample overruns its length");
  out.push(stale ? { value: STALE_NAN, timestampMs, stale: true } : { value, timestampMs });
}

function decodeV1(buf: Uint8Array, strict: boolean): RemoteWriteRequest {
  const r = new ProtoReader(buf);
  const series: Series[] = [];
  const metadata: RemoteMetadata[] = [];
  let sampleCount = 0, exemplarCount = 0;
  while (r.more()) {
    const tag = r.uint32();
    if (tag === 10) {
      const end = r.bytesEnd();
      const labels: Record<string, string> = {};
      const samples: Sample[] = [];
      while (r.pos < end) {
        const t = r.uint32();
        if (t === 10) {
          const lend = r.bytesEnd();
          let name = "", value = "";
          while (r.pos < lend) {
            const lt = r.uint32();
            if (lt === 10) name = r.string(true);
            else if (lt === 18) value = r.string(strict);
            else r.skip(lt & 7);
          }
          setLabel(labels, name, value);
        } else if (t === 18) {
          readSamples(r, r.bytesEnd(), samples);
        } else if (t === 26) {
          exemplarCount++;
          r.skip(2);
        } else if (t === 34) {
          throw invalidArguments(
            "remote write v1 native histogram ingestion is unsupported; use remote write v2",
          );
        } else {
          r.skip(t & 7);
        }
      }
      sampleCount += samples.length;
      series.push({ labels, samples });
    } else if (tag === 26) {
      const end = r.bytesEnd();
      const m: RemoteMetadata = { metric: "", type: "unknown", help: "", unit: "" };
      while (r.pos < end) {
        const t = r.uint32();
        if (t === 8) m.type = METRIC_TYPES[r.uint32()] ?? "unknown";
        else if (t === 18) m.metric = r.string(false);
        else if (t === 34) m.help = r.string(false);
        else if (t === 42) m.unit = r.string(false);
        else r.skip(t & 7);
      }
      metadata.push(m);
    } else {
      r.skip(tag & 7);
    }
  }
  return { version: 1, series, metadata, sampleCount, exemplarCount };
}

function decodeV2(buf: Uint8Array, strict: boolean): RemoteWriteRequest {
  const r = new ProtoReader(buf);
  const symbols: string[] = [];
  const seriesAt: number[] = [];
  // Symbols may follow the series on the wire, so collect both before resolving references.
  while (r.more()) {
    const tag = r.uint32();
    if (tag === 34) symbols.push(r.string(strict));
    else if (tag === 42) {
      const end = r.bytesEnd();
      seriesAt.push(r.pos, end);
      r.pos = end;
    } else r.skip(tag & 7);
  }
  const symbol = (ref: number): string => {
    if (ref >= symbols.length) throw new ProtoDecodeError(`symbol reference ${ref} out of range`);
    return symbols[ref];
  };
  const series: Series[] = [];
  const metadata: RemoteMetadata[] = [];
  let sampleCount = 0, exemplarCount = 0;
  const refs: number[] = [];
  for (let i = 0; i < seriesAt.length; i += 2) {
    const end = seriesAt[i + 1];
    r.pos = seriesAt[i];
    refs.length = 0;
    const samples: Sample[] = [];
    let meta: [number, number, number] | undefined;
    while (r.pos < end) {
      const t = r.uint32();
      if (t === 10) {
        const pend = r.bytesEnd();
        while (r.pos < pend) refs.push(r.uint32());
      } else if (t === 8) {
        refs.push(r.uint32());
      } else if (t === 18) {
        readSamples(r, r.bytesEnd(), samples);
      } else if (t === 26) {
        throw invalidArguments(
          "native histogram ingestion is disabled; set prom_store.experimental_enable_prometheus_native_histogram",
        );
      } else if (t === 34) {
        exemplarCount++;
        r.skip(2);
      } else if (t === 42) {
        const mend = r.bytesEnd();
        meta = [0, 0, 0];
        while (r.pos < mend) {
          const mt = r.uint32();
          if (mt === 8) meta[0] = r.uint32();
          else if (mt === 24) meta[1] = r.uint32();
          else if (mt === 32) meta[2] = r.uint32();
          else r.skip(mt & 7);
        }
      } else {
        r.skip(t & 7);
      }
    }
    if (refs.length % 2 !== 0) throw new ProtoDecodeError("odd number of label references");
    const labels: Record<string, string> = {};
    for (let k = 0; k < refs.length; k += 2) setLabel(labels, symbol(refs[k]), symbol(refs[k + 1]));
    if (!("__name__" in labels) || labels.__name__ === "") {
      throw invalidArguments(
        "Invalid prometheus remote request, msg: missing '__name__' label in timeseries",
      );
    }
    if (meta !== undefined && (meta[0] !== 0 || meta[1] !== 0 || meta[2] !== 0)) {
      metadata.push({
        metric: labels.__name__,
        type: METRIC_TYPES[meta[0]] ?? "unknown",
        help: symbol(meta[1]),
        unit: symbol(meta[2]),
      });
    }
    sampleCount += samples.length;
    series.push({ labels, samples });
  }
  return { version: 2, series, metadata, sampleCount, exemplarCount };
}

/** Writes a sample's value, with the exact staleness-marker bits for a stale sample. */
export function writeSampleValue(w: protobuf.Writer, s: Sample): void {
  if (isStaleSample(s)) w.fixed32(STALE_LO).fixed32(STALE_HI);
  else w.double(s.value);
}

/** Writes one `Sample` as field `tag`; zero fields are omitted, as Prometheus' (gogo) encoder does. */
export function writeSample(w: protobuf.Writer, s: Sample, tag = 18): void {
  w.uint32(tag).fork();
  if (s.value !== 0 || s.stale === true) {
    w.uint32(9);
    writeSampleValue(w, s);
  }
  if (s.timestampMs !== 0) w.uint32(16).int64(s.timestampMs);
  w.ldelim();
}

/** Encodes series (and metadata) as a snappy-compressed 1.0 `WriteRequest` body. */
export function encodeRemoteWriteV1(
  series: Series[],
  metadata: RemoteMetadata[] = [],
): Uint8Array<ArrayBuffer> {
  const w = protobuf.Writer.create();
  for (const s of series) {
    w.uint32(10).fork();
    for (const [name, value] of Object.entries(s.labels)) {
      w.uint32(10).fork().uint32(10).string(name).uint32(18).string(value).ldelim();
    }
    for (const sample of s.samples) writeSample(w, sample);
    w.ldelim();
  }
  for (const m of metadata) {
    w.uint32(26).fork().uint32(8).uint32(Math.max(0, METRIC_TYPES.indexOf(m.type)));
    w.uint32(18).string(m.metric).uint32(34).string(m.help).uint32(42).string(m.unit).ldelim();
  }
  return encodeSnappy(w.finish());
}

/** Encodes series as a snappy-compressed 2.0 `Request` (symbol table; metadata per series by metric name). */
export function encodeRemoteWriteV2(
  series: Series[],
  metadata: RemoteMetadata[] = [],
): Uint8Array<ArrayBuffer> {
  const symbols: string[] = [""];
  const index = new Map<string, number>([["", 0]]);
  const ref = (s: string): number => {
    let i = index.get(s);
    if (i === undefined) {
      i = symbols.length;
      symbols.push(s);
      index.set(s, i);
    }
    return i;
  };
  const metaByName = new Map(metadata.map((m) => [m.metric, m]));
  const w = protobuf.Writer.create();
  const body = protobuf.Writer.create();
  for (const s of series) {
    body.uint32(42).fork();
    body.uint32(10).fork();
    for (const [name, value] of Object.entries(s.labels)) body.uint32(ref(name)).uint32(ref(value));
    body.ldelim();
    for (const sample of s.samples) writeSample(body, sample);
    const m = metaByName.get(s.labels.__name__);
    if (m !== undefined) {
      body.uint32(42).fork().uint32(8).uint32(Math.max(0, METRIC_TYPES.indexOf(m.type)));
      body.uint32(24).uint32(ref(m.help)).uint32(32).uint32(ref(m.unit)).ldelim();
    }
    body.ldelim();
  }
  for (const s of symbols) w.uint32(34).string(s);
  const head = w.finish(), tail = body.finish();
  const out = new Uint8Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return encodeSnappy(out);
}
