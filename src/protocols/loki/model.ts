/** The typed model of a Loki push (JSON or protobuf). */

/** One log line: its time in nanoseconds, the line, and its structured metadata (name, value) pairs. */
export interface LokiEntry {
  timestampNs: bigint;
  line: string;
  structuredMetadata: [string, string][];
}

/** One stream: its label set (as sent, in order) and its entries. */
export interface LokiStream {
  labels: [string, string][];
  entries: LokiEntry[];
}

/** A decoded push; malformed streams and entries of a JSON push are skipped (as GreptimeDB does) and counted. */
export interface LokiPushRequest {
  streams: LokiStream[];
  skippedStreams: number;
  skippedEntries: number;
}
