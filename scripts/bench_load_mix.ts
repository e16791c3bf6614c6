/**
 * The load run's request kinds (`scripts/bench_load.ts`): what one endpoint is, how often it is
 * picked, and the metric-side kinds (line protocol, remote write, `/v1/ingest`, SQL, remote read).
 * The log and trace kinds are in `bench_load_telemetry.ts`.
 */
import { encodeSnappy } from "../src/codec/snappy.ts";
import { prometheusProtoRoot } from "../src/protocols/prompb/schema.ts";
import { encodeRemoteWriteV1 } from "../src/protocols/remote_write/encoder.ts";

/** One request of the load. */
export interface LoadRequest {
  path: string;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Rows the request writes (0 for reads). */
  rows: number;
}

/** One kind of request of the mix. */
export interface LoadEndpoint {
  name: string;
  /** How often it is picked, relative to the others' weights. */
  weight: number;
  /** The table its rows land in, counted back with SQL at the end; none for reads. */
  table?: string;
  /**
   * The k-th request of client c; `ts` (ms) is unique per (client, k), and a request's rows use
   * `ts + i` for i < 1000, so rows never collide.
   */
  request(c: number, k: number, ts: number): LoadRequest;
  /** What is wrong with a 2xx answer's body (a partial success, an errored item), if anything. */
  check?(text: string): string | undefined;
}

/** Rows or items per write request. */
export const BATCH = 50;

const ReadRequest = prometheusProtoRoot().lookupType("prometheus.ReadRequest");

/** The pipeline `/v1/ingest` requests name; uploaded before the run. */
export const PIPELINE = {
  name: "load_pipe",
  yaml: "version: 2\nprocessors: []\ntransform:\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n",
};

/** Line protocol, remote write, `/v1/ingest`, SQL and remote read. */
export const METRIC_ENDPOINTS: LoadEndpoint[] = [
  {
    name: "lineproto write",
    weight: 12,
    table: "load_lp",
    request: (c, k, ts) => {
      let body = "";
      for (let i = 0; i < 2 * BATCH; i++) {
        // a field now and then that the table has not seen: a column gets added under load
        const extra = i === 0 ? `,extra_${k % 40}=1i` : "";
        body += `load_lp,client=c${c},shard=s${i % 4} v=${i}i,f=${k}.5${extra} ${ts + i}\n`;
      }
      return { path: "/v1/influxdb/write?precision=ms", body, rows: 2 * BATCH };
    },
  },
  {
    name: "remote write",
    weight: 10,
    table: "load_rw",
    request: (c, _k, ts) => {
      const samples = Array.from({ length: 2 * BATCH }, (_, i) => ({ value: i, timestampMs: ts + i }));
      return {
        path: "/v1/prometheus/write",
        body: encodeRemoteWriteV1([{
          labels: { __name__: "load_rw", client: `c${c}`, job: "load" },
          samples,
        }]),
        headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
        rows: 2 * BATCH,
      };
    },
  },
  {
    name: "ingest",
    weight: 6,
    table: "load_ingest",
    request: (c, k, ts) => {
      const lines = Array.from(
        { length: BATCH },
        (_, i) => JSON.stringify({ client: `c${c}`, k, i, msg: "load test line", ts: ts + i }),
      );
      return {
        path: `/v1/ingest?table=load_ingest&pipeline_name=${PIPELINE.name}`,
        body: lines.join("\n"),
        headers: { "content-type": "application/x-ndjson" },
        rows: BATCH,
      };
    },
  },
  {
    name: "sql",
    weight: 6,
    request: (c) => {
      const q = `SELECT shard, count(*), avg(v) FROM load_lp WHERE client = 'c${c}' GROUP BY shard`;
      return { path: `/v1/sql?sql=${encodeURIComponent(q)}`, rows: 0 };
    },
  },
  {
    name: "remote read",
    weight: 5,
    request: (c, _k, ts) => {
      const msg = ReadRequest.fromObject({
        queries: [{
          startTimestampMs: ts - 60_000,
          endTimestampMs: ts,
          matchers: [{ type: 0, name: "__name__", value: "load_rw" }, {
            type: 0,
            name: "client",
            value: `c${c}`,
          }],
        }],
      });
      return {
        path: "/v1/prometheus/read",
        body: encodeSnappy(ReadRequest.encode(msg).finish()),
        headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
        rows: 0,
      };
    },
  },
];
