/**
 * `deno task bench forward`: what store-and-forward costs and how fast it drains. (1) Metric ingest
 * through the storage API with and without the insert sequence forwarding reads by (the median of 5
 * alternating runs each); (2) a backlog of 200k samples built while the upstream (a second Petrel,
 * in-process) is down, then the time the forwarder takes to send it all by remote write; (3) reading
 * one large keyed write's journal entry in pages of 500 rows (keyset paging: N and 4N rows should take
 * about 1× and 4× the time, where the OFFSET paging it replaced took 1× and 16×).
 */
import { Storage } from "../src/storage/mod.ts";
import { startTestServer } from "../test/helpers/server.ts";
import { parseForwardList } from "../src/forward/config.ts";
import { encodeRemoteWriteV1 } from "../src/protocols/remote_write/encoder.ts";
import { journalAfter } from "../src/storage/forward_journal.ts";
import { ENTRY_START, readEntryRows } from "../src/storage/forward_entry.ts";

/** What the forward section measures. */
export interface ForwardBench {
  ingestPlain: number;
  ingestSequenced: number;
  drainSamplesPerSec: number;
  /** Ms to page through one keyed write's journal entry of `rows` rows, for N and 4N rows. */
  paging: Array<{ rows: number; ms: number }>;
}

/** Ms to read a keyed write of `n` rows (one seq, 100 timestamps, n / 100 tag pairs each) in pages of 500. */
function pagingMs(n: number): number {
  const storage = Storage.open({ dataHome: ":memory:" });
  storage.forwarding = { gate() {}, journal: true };
  const columns = [
    { name: "host", type: "String" as const, semantic: "TAG" as const },
    { name: "dc", type: "String" as const, semantic: "TAG" as const },
    { name: "ts", type: "TimestampMillisecond" as const, semantic: "TIMESTAMP" as const },
    { name: "v", type: "Float64" as const, semantic: "FIELD" as const },
  ];
  const rows = Array.from(
    { length: n },
    (_, i) => [`h${(i / 100 | 0) % 1000}`, `dc${i / 100_000 | 0}`, i % 100, i],
  );
  storage.write("public", [{ table: "wide", columns, rows }]);
  const h = storage.database("public");
  const table = h.getTable("wide")!, [entry] = journalAfter(h, "main", 0, 1);
  const start = performance.now();
  let at = ENTRY_START, read = 0;
  for (;;) {
    const r = readEntryRows(h, table, entry, at, 500);
    read += r.rows.length;
    at = r.at;
    if (r.rows.length < 500) break;
  }
  const ms = performance.now() - start;
  storage.close();
  if (read !== n) throw new Error(`paging read ${read} of ${n} rows`);
  return ms;
}

function ingestRate(sequenced: boolean): number {
  const dir = Deno.makeTempDirSync({ prefix: "petrel_bench_fwd_" });
  const storage = Storage.open({ dataHome: dir });
  if (sequenced) storage.forwarding = { gate() {}, journal: false };
  const t0 = Date.now() - 3_600_000;
  const start = performance.now();
  for (let w = 0; w < 100; w++) {
    const series = Array.from({ length: 1000 }, (_, s) => ({
      labels: { host: `h${s}`, job: "bench" },
      samples: Array.from({ length: 10 }, (_, i) => ({ timestampMs: t0 + w * 10_000 + i * 1000, value: i })),
    }));
    storage.writeMetrics("public", [{ metric: "m", series }]);
  }
  const rate = 1_000_000 / ((performance.now() - start) / 1000);
  storage.close();
  Deno.removeSync(dir, { recursive: true });
  return rate;
}

const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];

async function drainRate(): Promise<number> {
  const up = await startTestServer();
  const url = `${up.url}/v1/prometheus/write`;
  // the upstream is reachable from the start: the backlog forms because writes outrun the forwarder
  const forward = parseForwardList(
    [{ url, protocol: "remote_write", batch_size: 5000, interval: "50ms" }],
    "bench",
  );
  const edge = await startTestServer({ forward });
  const t0 = Date.now() - 3_000_000;
  const start = performance.now();
  for (let w = 0; w < 40; w++) {
    const series = Array.from({ length: 500 }, (_, s) => ({
      labels: { __name__: "bench_fwd", host: `h${s}` },
      samples: Array.from({ length: 10 }, (_, i) => ({ timestampMs: t0 + w * 10_000 + i * 1000, value: i })),
    }));
    const res = await fetch(`${edge.url}/v1/prometheus/write`, {
      method: "POST",
      headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
      body: encodeRemoteWriteV1(series),
    });
    await res.body?.cancel();
  }
  for (;;) {
    const st = (await (await fetch(`${edge.url}/status`)).json()).forward[0];
    if (st.sent_rows >= 200_000) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const rate = 200_000 / ((performance.now() - start) / 1000);
  await edge.stop();
  await up.stop();
  return rate;
}

/** Runs the forward section. */
export async function benchForward(): Promise<ForwardBench> {
  const plain: number[] = [], sequenced: number[] = [];
  for (let i = 0; i < 5; i++) {
    plain.push(ingestRate(false));
    sequenced.push(ingestRate(true));
  }
  return {
    ingestPlain: median(plain),
    ingestSequenced: median(sequenced),
    drainSamplesPerSec: await drainRate(),
    // a first small run warms the code up, so N and 4N compare the paging alone
    paging: [10_000, 50_000, 200_000].map((rows) => ({ rows, ms: pagingMs(rows) })).slice(1),
  };
}
