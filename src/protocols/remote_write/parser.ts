/**
 * Prometheus remote write 1.0 (`prometheus.WriteRequest`) and 2.0 (`io.prometheus.write.v2.Request`)
 * bodies → series of labels and samples. Content negotiation follows GreptimeDB (reference §6.9):
 * the version comes from `Content-Type`, the compression from `Content-Encoding`, and which mistakes
 * are 415 rather than 400 is kept exactly. Stale markers stay NaN with their payload (`isStaleNaN`).
 */

import { decompressPrometheus, encodingOf } from "../../codec/decompress.ts";
import { ProtoDecodeError, ProtoReader } from "../../codec/protobuf.ts";
import { invalidArguments, PetrelError, unsupportedMediaType } from "../../common/errors.ts";
import { METRIC_TYPES } from "../prompb/schema.ts";
import { type Sample, type Series, STALE_NAN } from "../../common/series.ts";
import { setLabel } from "../../common/labels.ts";
import { cachedLabels, cacheLabels, labelBytesHash } from "./label_cache.ts";

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

/** Decompresses a remote-write body per `Content-Encoding`; 2.0 takes only snappy and zstd, labelled right. */
function decompress(body: Uint8Array, encoding: string | null | undefined, version: 1 | 2, limit: number) {
  const codec = encodingOf(encoding);
  if (version === 2 && codec !== "snappy" && codec !== "zstd") {
    throw unsupportedMedia(
      "unsupported prometheus remote write content encoding: only snappy and zstd are supported",
    );
  }
  return decompressPrometheus(body, codec, limit, version === 1);
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

/** Reads one `Label` message (its tag read) into `labels`. */
function readLabel(r: ProtoReader, labels: Record<string, string>, strict: boolean): void {
  const lend = r.bytesEnd();
  let name = "", value = "";
  while (r.pos < lend) {
    const lt = r.uint32();
    if (lt === 10) name = r.string(true);
    else if (lt === 18) value = r.string(strict);
    else r.skip(lt & 7);
  }
  setLabel(labels, name, value);
}

/**
 * The end of the run of label fields (tag 10) from `at` in a `TimeSeries` ending at `end`; `at`
 * when there is none. A field running past `end` ends the run (the decode then reports it).
 */
function labelFieldsEnd(buf: Uint8Array, at: number, end: number): number {
  let p = at;
  while (p < end && buf[p] === 10) {
    let q = p + 1, len = 0, shift = 0, b = 0x80;
    while (b >= 0x80 && q < end && shift < 28) {
      b = buf[q++];
      len |= (b & 0x7f) << shift;
      shift += 7;
    }
    if (b >= 0x80 || q + len > end) break;
    p = q + len;
  }
  return p;
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
      let labels: Record<string, string> = {};
      let shared = false;
      // The label fields a series starts with (all of them, as Prometheus writes them), cached by bytes.
      const la = r.pos, lb = labelFieldsEnd(r.buf, la, end);
      if (lb > la) {
        const h = labelBytesHash(r.buf, la, lb);
        const hit = h < 0 ? undefined : cachedLabels(h, r.buf, la, lb);
        if (hit !== undefined) {
          labels = hit;
          r.pos = lb;
        } else {
          while (r.pos < lb) {
            r.uint32();
            readLabel(r, labels, strict);
          }
          if (h >= 0) cacheLabels(h, r.buf, la, lb, labels);
        }
        shared = h >= 0;
      }
      const samples: Sample[] = [];
      while (r.pos < end) {
        const t = r.uint32();
        if (t === 10) {
          if (shared) {
            labels = { ...labels };
            shared = false;
          }
          readLabel(r, labels, strict);
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
