/**
 * Where an Elasticsearch `_bulk` document's CPU goes on the main thread, stage by stage, in process:
 * decode (`decodeBulk`), group (`bulkToEntries`), pipeline (the identity pipeline), write (the
 * storage writer and SQLite) and response (`bulkSuccessJson` encoded), on the bodies of
 * `bench_telemetry.ts es_bulk`, one body at a time as the route runs them. CPU is this thread's
 * from `/proc/thread-self/schedstat` (nanoseconds): `process.threadCpuUsage()` counts 10 ms ticks
 * here, coarser than a stage of one body. With a second worktree (`--base <dir>`) the stages without
 * the write run for both trees in this one process, taking turns body by body, so a change is paired
 * against the tree it came from under the same load (a tree compared with itself differs by up to
 * ~6 % a run on the shared bench host; read several runs).
 * Run: `deno run -A scripts/bench_es_stages.ts [--base /path/to/other/worktree]` (Linux).
 */
import { PROTOCOLS } from "./bench_telemetry.ts";

const BODIES = 20;
/** Rounds of all bodies: paired runs leave the write out, so they afford more. */
const ROUNDS = 3, PAIRED_ROUNDS = 10;

type Stages = Record<string, number>;

/** CPU milliseconds of this thread so far. */
function threadMs(): number {
  return Number(Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ")[0]) / 1e6;
}

/** The server's ingest functions of the worktree at `root`, over a fresh storage. */
async function tree(root: string, dataHome: string) {
  const es = await import(
    `${root}/src/protocols/elasticsearch/mod.ts`
  ) as typeof import("../src/protocols/elasticsearch/mod.ts");
  const { bulkToEntries } = await import(
    `${root}/src/ingest/elasticsearch/translate.ts`
  ) as typeof import("../src/ingest/elasticsearch/translate.ts");
  const logs = await import(`${root}/src/ingest/logs.ts`) as typeof import("../src/ingest/logs.ts");
  const { Storage } = await import(`${root}/src/storage/mod.ts`) as typeof import("../src/storage/mod.ts");
  const store = await import(`${root}/engine/store.ts`) as typeof import("../engine/store.ts");
  const { logTableOptions } = await import(
    `${root}/src/ingest/log_options.ts`
  ) as typeof import("../src/ingest/log_options.ts");
  await store.loadPipelineEngine();
  const storage = Storage.open({ dataHome });
  const pipelines = new store.PipelineStore(storage);
  const options = logTableOptions("elasticsearch");
  const encoder = new TextEncoder();
  const stages: Stages = { decode: 0, group: 0, pipeline: 0, write: 0, response: 0 };
  /** Runs one body as the route does, adding each stage's CPU to `stages` when `count`. */
  const run = (body: Uint8Array, count: boolean, write: boolean) => {
    let t = threadMs();
    const lap = (stage: string) => {
      const now = threadMs();
      if (count) stages[stage] += now - t;
      t = now;
    };
    const req = es.decodeBulk(body);
    lap("decode");
    const { tables } = bulkToEntries(req, {});
    lap("group");
    const out = tables.map((tb) =>
      logs.runEntriesPipeline(storage, pipelines, {
        db: "public",
        table: tb.table,
        pipeline: store.IDENTITY_PIPELINE,
        version: null,
        entries: tb.entries,
        skipError: false,
        options,
      })
    );
    lap("pipeline");
    if (!write) return;
    for (const o of out) logs.writeLogBatches(storage, "public", o.batches, {});
    lap("write");
    encoder.encode(es.bulkSuccessJson(1, req.items.length));
    lap("response");
  };
  return { root, stages, run, close: () => storage.close() };
}

function perDoc(stages: Stages, docs: number, paired: boolean): string {
  return Object.entries(stages)
    .filter(([k]) => !paired || (k !== "write" && k !== "response"))
    .map(([k, ms]) => `${k} ${(ms * 1000 / docs).toFixed(3)}`).join("  ");
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--base");
  const base = at >= 0 ? Deno.args[at + 1] : null;
  const p = PROTOCOLS.es_bulk;
  const bodies = Array.from({ length: BODIES }, (_, r) => p.body(r));
  const perBody = p.decode(bodies[0]) as { items: unknown[] };
  const rounds = base ? PAIRED_ROUNDS : ROUNDS;
  const docs = rounds * BODIES * perBody.items.length;
  const dirs: string[] = [];
  const home = () => {
    dirs.push(Deno.makeTempDirSync({ prefix: "petrel_es_stages_" }));
    return dirs[dirs.length - 1];
  };
  const here = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
  const trees = [await tree(here, home())];
  if (base) trees.unshift(await tree(base.replace(/\/$/, ""), home()));
  try {
    // warm-up: creates the table and lets the JIT compile
    for (const t of trees) for (const b of bodies.slice(0, 5)) t.run(b, false, true);
    // body by body, the trees taking turns to go first: the machine's load shifts within a round
    const reversed = trees.slice().reverse();
    for (let round = 0, k = 0; round < rounds; round++) {
      for (const b of bodies) {
        // paired runs leave the write out: the two trees' writers would share the disk's load
        for (const t of k++ % 2 ? reversed : trees) t.run(b, true, trees.length === 1);
      }
    }
    for (const t of trees) {
      console.log(`${t.root}: µs/doc, main thread: ${perDoc(t.stages, docs, trees.length > 1)}`);
    }
  } finally {
    for (const t of trees) t.close();
    for (const d of dirs) Deno.removeSync(d, { recursive: true });
  }
}
