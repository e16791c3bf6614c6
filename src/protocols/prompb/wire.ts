/** Writing prompb messages shared by remote write and remote read: samples and labels. */
import type protobuf from "protobufjs";
import { isStaleSample, type Sample, STALE_HI, STALE_LO } from "../../common/series.ts";

/** Writes a sample's value, with the exact staleness-marker bits for a stale sample. */
function writeSampleValue(w: protobuf.Writer, s: Sample): void {
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

/** Writes `Label` messages (field 1) of a series. */
export function writeLabels(w: protobuf.Writer, labels: [string, string][]): void {
  for (const [name, value] of labels) {
    w.uint32(10).fork().uint32(10).string(name).uint32(18).string(value).ldelim();
  }
}
