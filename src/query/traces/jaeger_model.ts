/** The Jaeger query API's JSON objects, as GreptimeDB serves them (reference §6.16). */

/** A tag: Jaeger's typed key/value. */
export interface JaegerKeyValue {
  key: string;
  type: "string" | "bool" | "int64" | "float64" | "binary";
  value: string | boolean | number;
}

/** A span's reference to another span (its parent, or a link). */
export interface JaegerReference {
  refType: "CHILD_OF" | "FOLLOWS_FROM";
  traceID: string;
  spanID: string;
}

/** A span event. */
export interface JaegerLog {
  /** Microseconds since the epoch. */
  timestamp: number;
  fields: JaegerKeyValue[];
}

/** One span. Times in microseconds. */
export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: JaegerReference[];
  startTime: number;
  duration: number;
  tags: JaegerKeyValue[];
  logs: JaegerLog[];
  processID: string;
}

/** The service a span ran in. */
export interface JaegerProcess {
  serviceName: string;
  tags: JaegerKeyValue[];
}

/** One trace: its spans and their processes. */
export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, JaegerProcess>;
}

/** An operation of `/api/operations`. */
export interface JaegerOperation {
  name: string;
  spanKind: string;
}
