/**
 * `deno task bench forward`: what store-and-forward costs and how fast it drains. (1) Metric ingest
 * through the storage API with and without the insert sequence forwarding reads by (the median of 5
 * alternating runs each); (2) a backlog of 200k samples built while the upstream (a second Petrel,
 * in-process) is down, then the time the forwarder takes to send it all by remote write.
 */
import { Storage } from "../src/storage/mod.ts";
import { startTestServer } from "../test/helpers/server.ts";
import { parseForwardList } from "../src/forward/config.ts";
import { encodeRemoteWriteV1 } from "../src/protocols/remote_write/encoder.ts";

/** What the forward section measures. */
export interface ForwardBench {
  ingestPlain: number;
  ingestSequenced: number;
  drainSamplesPerSec: number;
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
  };
}
