/**
 * Prometheus remote write/read message definitions (prompb `types.proto` + `remote.proto`, and
 * `io.prometheus.write.v2`), kept as strings so `deno compile` embeds them. The hot paths read and
 * write the wire format directly; these schemas back protobufjs encoding and the tests' cross-checks.
 */

import protobuf from "protobufjs";

/** `prometheus` package: remote write 1.0 and remote read. */
const PROMETHEUS_V1_PROTO = `
syntax = "proto3";
package prometheus;

message MetricMetadata {
  enum MetricType {
    UNKNOWN = 0; COUNTER = 1; GAUGE = 2; HISTOGRAM = 3; GAUGEHISTOGRAM = 4; SUMMARY = 5; INFO = 6; STATESET = 7;
  }
  MetricType type = 1;
  string metric_family_name = 2;
  string help = 4;
  string unit = 5;
}
message Sample { double value = 1; int64 timestamp = 2; }
message Exemplar { repeated Label labels = 1; double value = 2; int64 timestamp = 3; }
message BucketSpan { sint32 offset = 1; uint32 length = 2; }
message Histogram {
  oneof count { uint64 count_int = 1; double count_float = 2; }
  double sum = 3;
  sint32 schema = 4;
  double zero_threshold = 5;
  oneof zero_count { uint64 zero_count_int = 6; double zero_count_float = 7; }
  repeated BucketSpan negative_spans = 8;
  repeated sint64 negative_deltas = 9;
  repeated double negative_counts = 10;
  repeated BucketSpan positive_spans = 11;
  repeated sint64 positive_deltas = 12;
  repeated double positive_counts = 13;
  int32 reset_hint = 14;
  int64 timestamp = 15;
}
message TimeSeries {
  repeated Label labels = 1;
  repeated Sample samples = 2;
  repeated Exemplar exemplars = 3;
  repeated Histogram histograms = 4;
}
message Label { string name = 1; string value = 2; }
message LabelMatcher {
  enum Type { EQ = 0; NEQ = 1; RE = 2; NRE = 3; }
  Type type = 1;
  string name = 2;
  string value = 3;
}
message ReadHints {
  int64 step_ms = 1; string func = 2; int64 start_ms = 3; int64 end_ms = 4;
  repeated string grouping = 5; bool by = 6; int64 range_ms = 7;
}
message Chunk {
  int64 min_time_ms = 1;
  int64 max_time_ms = 2;
  enum Encoding { UNKNOWN = 0; XOR = 1; HISTOGRAM = 2; FLOAT_HISTOGRAM = 3; }
  Encoding type = 3;
  bytes data = 4;
}
message ChunkedSeries { repeated Label labels = 1; repeated Chunk chunks = 2; }

message WriteRequest {
  repeated TimeSeries timeseries = 1;
  repeated MetricMetadata metadata = 3;
}
message ReadRequest {
  repeated Query queries = 1;
  enum ResponseType { SAMPLES = 0; STREAMED_XOR_CHUNKS = 1; }
  repeated ResponseType accepted_response_types = 2;
}
message ReadResponse { repeated QueryResult results = 1; }
message Query {
  int64 start_timestamp_ms = 1;
  int64 end_timestamp_ms = 2;
  repeated LabelMatcher matchers = 3;
  ReadHints hints = 4;
}
message QueryResult { repeated TimeSeries timeseries = 1; }
message ChunkedReadResponse {
  repeated ChunkedSeries chunked_series = 1;
  int64 query_index = 2;
}
`;

/** `io.prometheus.write.v2`: remote write 2.0 with its symbol table. */
const PROMETHEUS_V2_PROTO = `
syntax = "proto3";
package io.prometheus.write.v2;

message Request {
  reserved 1 to 3;
  repeated string symbols = 4;
  repeated TimeSeries timeseries = 5;
}
message TimeSeries {
  repeated uint32 labels_refs = 1;
  repeated Sample samples = 2;
  repeated Histogram histograms = 3;
  repeated Exemplar exemplars = 4;
  Metadata metadata = 5;
  int64 created_timestamp = 6;
}
message Exemplar { repeated uint32 labels_refs = 1; double value = 2; int64 timestamp = 3; }
message Sample { double value = 1; int64 timestamp = 2; }
message Metadata {
  enum MetricType {
    METRIC_TYPE_UNSPECIFIED = 0; METRIC_TYPE_COUNTER = 1; METRIC_TYPE_GAUGE = 2; METRIC_TYPE_HISTOGRAM = 3;
    METRIC_TYPE_GAUGEHISTOGRAM = 4; METRIC_TYPE_SUMMARY = 5; METRIC_TYPE_INFO = 6; METRIC_TYPE_STATESET = 7;
  }
  MetricType type = 1;
  uint32 help_ref = 3;
  uint32 unit_ref = 4;
}
message BucketSpan { sint32 offset = 1; uint32 length = 2; }
message Histogram {
  oneof count { uint64 count_int = 1; double count_float = 2; }
  double sum = 3;
  sint32 schema = 4;
  double zero_threshold = 5;
  oneof zero_count { uint64 zero_count_int = 6; double zero_count_float = 7; }
  repeated BucketSpan negative_spans = 8;
  repeated sint64 negative_deltas = 9;
  repeated double negative_counts = 10;
  repeated BucketSpan positive_spans = 11;
  repeated sint64 positive_deltas = 12;
  repeated double positive_counts = 13;
  int32 reset_hint = 14;
  int64 timestamp = 15;
  repeated double custom_values = 16;
}
`;

let root: protobuf.Root | undefined;

/** The parsed protobufjs Root holding both packages (parsed once, on first use). */
export function prometheusProtoRoot(): protobuf.Root {
  if (root === undefined) {
    root = new protobuf.Root();
    protobuf.parse(PROMETHEUS_V1_PROTO, root, { keepCase: false });
    protobuf.parse(PROMETHEUS_V2_PROTO, root, { keepCase: false });
  }
  return root;
}

/** Metric types by enum number (the same numbers in 1.0 and 2.0). */
export const METRIC_TYPES = [
  "unknown",
  "counter",
  "gauge",
  "histogram",
  "gaugehistogram",
  "summary",
  "info",
  "stateset",
] as const;
