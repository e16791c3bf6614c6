/** The SAMPLES remote-read response: a snappy-compressed `ReadResponse`, one result per query. */
import protobuf from "protobufjs";
import { encodeSnappy } from "../../codec/snappy.ts";
import { sortedLabels } from "../../common/series.ts";
import { writeLabels, writeSample } from "../prompb/wire.ts";
import type { ReadQueryResult } from "./chunked.ts";

/** Content type of a SAMPLES response (body: snappy `ReadResponse`, `Content-Encoding: snappy`). */
export const READ_RESPONSE_CONTENT_TYPE = "application/x-protobuf";

/** Encodes results as a snappy-compressed `ReadResponse` (SAMPLES), results in request order. */
export function encodeReadResponse(results: ReadQueryResult[]): Uint8Array<ArrayBuffer> {
  const w = protobuf.Writer.create();
  for (const result of results) {
    w.uint32(10).fork();
    for (const s of result.series) {
      w.uint32(10).fork();
      writeLabels(w, sortedLabels(s.labels));
      for (const sample of s.samples) writeSample(w, sample);
      w.ldelim();
    }
    w.ldelim();
  }
  return encodeSnappy(w.finish());
}
