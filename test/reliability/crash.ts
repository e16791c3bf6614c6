/**
 * One crash trial: a real Petrel child process takes sustained writes from concurrent writers (line
 * protocol, remote write, `/v1/ingest` through a pipeline, a writer mixing all three, and a
 * `skip_wal` line-protocol writer), is SIGKILLed mid-stream, restarted on the same data dir, and
 * checked by SQL: every acknowledged batch is there whole, and no batch is there in part. Every
 * batch carries its id (a tag/label/column `batch`) and its row count (`n`), so a partial batch shows
 * as a count below `n`. Shared by `crash_test.ts` (3 trials) and `scripts/crash.ts` (20).
 */
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";
import { type SpawnedServer, spawnServer } from "../helpers/server.ts";
export { seededRandom } from "../helpers/random.ts";

/** What a trial found. */
export interface CrashTrialResult {
  /** Batches (rows) acknowledged with a 2xx before the kill, over the durable writers. */
  ackedBatches: number;
  ackedRows: number;
  /** Acknowledged durable batches missing or short after the restart (must be 0). */
  lostBatches: string[];
  /** Batches stored with fewer rows than they carried, acknowledged or not (must be 0). */
  partialBatches: string[];
  /** Batches stored though never acknowledged (in flight at the kill: allowed). */
  unackedStored: number;
  /** skip_wal batches acknowledged, and those lost (allowed within the group-commit window). */
  skipWalAcked: number;
  skipWalLost: number;
  /** Longest time between a lost skip_wal batch's acknowledgement and the kill (ms), 0 if none lost. */
  skipWalLostWindowMs: number;
  /** How long the writers ran before the kill (ms). */
  ranMs: number;
}

/** Options of a trial. */
export interface CrashTrialOptions {
  /** Random source (seeded by the caller for reproducible batch shapes). */
  random: () => number;
  /** How long to write after every writer has had a first acknowledgement (ms). */
  runMs: number;
  /** Largest batch (rows). */
  maxBatch?: number;
}

interface Ack {
  id: string;
  rows: number;
  at: number;
}

type Protocol = "lp" | "rw" | "ingest" | "skipwal";

const TABLES: Record<Protocol, string> = {
  lp: "crash_lp",
  rw: "crash_rw",
  ingest: "crash_ingest",
  skipwal: "crash_skipwal",
};

const PIPELINE = "version: 2\nprocessors: []\ntransform:\n" +
  "  - field: ts\n    type: epoch, ms\n    index: timestamp\n";

const BASE_TS = 1_700_000_000_000;

function lineProtocol(table: string, writer: string, id: string, rows: number, ts: number): string {
  let out = "";
  for (let i = 0; i < rows; i++) {
    out += `${table},writer=${writer},batch=${id} seq=${i}i,n=${rows}i ${ts + i}\n`;
  }
  return out;
}

/** The request for one batch of `rows` rows over a protocol. */
function batchRequest(base: string, p: Protocol, writer: string, id: string, rows: number, ts: number) {
  if (p === "rw") {
    const samples = Array.from({ length: rows }, (_, i) => ({ value: rows, timestampMs: ts + i }));
    return {
      url: `${base}/v1/prometheus/write`,
      body: encodeRemoteWriteV1([{
        labels: { __name__: TABLES.rw, writer, batch: id },
        samples,
      }]) as BodyInit,
      headers: {
        "content-type": "application/x-protobuf",
        "content-encoding": "snappy",
        "x-prometheus-remote-write-version": "0.1.0",
      },
    };
  }
  if (p === "ingest") {
    const lines = Array.from(
      { length: rows },
      (_, i) => JSON.stringify({ writer, batch: id, seq: i, n: rows, ts: ts + i }),
    );
    return {
      url: `${base}/v1/ingest?table=${TABLES.ingest}&pipeline_name=crash_pipe`,
      body: lines.join("\n") as BodyInit,
      headers: { "content-type": "application/x-ndjson" },
    };
  }
  const table = TABLES[p];
  return {
    url: `${base}/v1/influxdb/write?precision=ms`,
    body: lineProtocol(table, writer, id, rows, ts) as BodyInit,
    headers: (p === "skipwal" ? { "x-greptime-hint-skip_wal": "true" } : {}) as Record<string, string>,
  };
}

/** One writer: sends batches until the server goes away; records each acknowledged batch. */
async function runWriter(
  base: string,
  writer: string,
  protocols: Protocol[],
  opts: CrashTrialOptions,
  acks: Map<Protocol, Ack[]>,
  firstAck: () => void,
): Promise<void> {
  const maxBatch = opts.maxBatch ?? 400;
  for (let k = 0;; k++) {
    const p = protocols[k % protocols.length];
    const id = `${writer}-${k}`;
    const rows = 1 + Math.floor(opts.random() * maxBatch);
    const req = batchRequest(base, p, writer, id, rows, BASE_TS + k * 1000);
    let status: number;
    try {
      const r = await fetch(req.url, {
        method: "POST",
        body: req.body,
        headers: req.headers,
        signal: AbortSignal.timeout(30_000),
      });
      status = r.status;
      await r.body?.cancel();
    } catch {
      return; // the server is gone: this batch is unacknowledged
    }
    if (status < 200 || status >= 300) throw new Error(`${writer} batch ${id} (${p}): HTTP ${status}`);
    acks.get(p)!.push({ id, rows, at: Date.now() });
    firstAck();
  }
}

async function sqlRows(base: string, sql: string): Promise<unknown[][] | null> {
  const r = await fetch(`${base}/v1/sql?sql=${encodeURIComponent(sql)}`);
  const body = await r.json();
  if (r.status !== 200) {
    if (/not found|not exist/i.test(JSON.stringify(body))) return null;
    throw new Error(`${sql}: HTTP ${r.status} ${JSON.stringify(body)}`);
  }
  return body.output[0].records.rows;
}

/** Stored row count per batch id, and the `n` each batch says it had. */
async function storedBatches(base: string, table: string): Promise<Map<string, [number, number]>> {
  const nCol = table === TABLES.rw ? "greptime_value" : "n";
  const rows = await sqlRows(base, `SELECT batch, count(*), max(${nCol}) FROM ${table} GROUP BY batch`);
  return new Map((rows ?? []).map((r) => [String(r[0]), [Number(r[1]), Number(r[2])]]));
}

/** Runs one trial on a fresh data dir (removed afterwards unless `keepDir`). */
export async function crashTrial(opts: CrashTrialOptions, keepDir = false): Promise<CrashTrialResult> {
  const dataHome = await Deno.makeTempDir({ prefix: "petrel_crash_" });
  const args = ["--http-addr", "127.0.0.1:0", "--data-home", dataHome];
  let server: SpawnedServer | null = await spawnServer(args);
  try {
    const up = await fetch(`${server.url}/v1/pipelines/crash_pipe`, {
      method: "POST",
      body: PIPELINE,
      headers: { "content-type": "application/x-yaml" },
    });
    if (up.status !== 200) throw new Error(`pipeline upload: ${up.status} ${await up.text()}`);
    const acks = new Map<Protocol, Ack[]>([["lp", []], ["rw", []], ["ingest", []], ["skipwal", []]]);
    const writers: [string, Protocol[]][] = [
      ["lp", ["lp"]],
      ["rw", ["rw"]],
      ["ingest", ["ingest"]],
      ["mix", ["lp", "rw", "ingest"]],
      ["skipwal", ["skipwal"]],
    ];
    let waiting = writers.length;
    let allAcked: () => void;
    const started = new Promise<void>((r) => allAcked = r);
    const runs = writers.map(([name, protocols]) => {
      let first = true;
      return runWriter(server!.url, name, protocols, opts, acks, () => {
        if (first && (first = false, --waiting === 0)) allAcked();
      });
    });
    const failed = Promise.race(runs.map((r) => r.then(() => new Promise<never>(() => {}))));
    failed.catch(() => {}); // a writer's failure is thrown by `Promise.all(runs)` below
    await Promise.race([started, failed]);
    const t0 = Date.now();
    await Promise.race([new Promise((r) => setTimeout(r, opts.runMs)), failed]);
    const killedAt = Date.now();
    await server.stop("SIGKILL");
    server = null;
    await Promise.all(runs);
    server = await spawnServer(args);
    return await verify(server.url, acks, killedAt, killedAt - t0);
  } finally {
    await server?.stop("SIGTERM");
    if (!keepDir) await Deno.remove(dataHome, { recursive: true }).catch(() => {});
  }
}

async function verify(
  base: string,
  acks: Map<Protocol, Ack[]>,
  killedAt: number,
  ranMs: number,
): Promise<CrashTrialResult> {
  const out: CrashTrialResult = {
    ackedBatches: 0,
    ackedRows: 0,
    lostBatches: [],
    partialBatches: [],
    unackedStored: 0,
    skipWalAcked: 0,
    skipWalLost: 0,
    skipWalLostWindowMs: 0,
    ranMs,
  };
  for (const [p, list] of acks) {
    const stored = await storedBatches(base, TABLES[p]);
    const acked = new Set(list.map((a) => a.id));
    for (const [id, [count, n]] of stored) {
      if (count !== n) out.partialBatches.push(`${TABLES[p]}/${id}: ${count} of ${n} rows`);
      if (!acked.has(id)) out.unackedStored++;
    }
    for (const a of list) {
      const have = stored.get(a.id)?.[0] ?? 0;
      if (p === "skipwal") {
        out.skipWalAcked++;
        if (have === 0) {
          out.skipWalLost++;
          out.skipWalLostWindowMs = Math.max(out.skipWalLostWindowMs, killedAt - a.at);
        }
        continue;
      }
      out.ackedBatches++;
      out.ackedRows += a.rows;
      if (have !== a.rows) out.lostBatches.push(`${TABLES[p]}/${a.id}: ${have} of ${a.rows} rows`);
    }
  }
  return out;
}
