/**
 * A design probe for issue 12 (not a benchmark with a target): what storing log lines costs in SQLite
 * as one row per line (today's layout: a rowid table with a time index) against one JSON document per
 * request read back through a `json_each` view, and what reading them back costs each way. 100
 * requests of 5,000 Loki-like lines (~130 bytes each); CPU seconds of this process, so the machine's
 * other load counts less. Also times the parts of the blob write (stringify, insert) and a level-1
 * deflate of the documents, the step a compressed chunk format would add.
 * Run: `deno run -A scripts/log_format_probe.ts`.
 */
import { DatabaseSync } from "node:sqlite";
import process from "node:process";
import zlib from "node:zlib";

const REQUESTS = 100, PER_REQUEST = 5_000, LINES = REQUESTS * PER_REQUEST;
const BASE_NS = 1_700_000_000_000_000_000n;
type Line = [ts: bigint, line: string, metadata: string, job: string];

const dir = Deno.makeTempDirSync({ prefix: "petrel_log_probe_" });
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const perLine = (seconds: number) => `${(seconds * 1e6 / LINES).toFixed(2)} µs/line`;

function open(name: string): DatabaseSync {
  const db = new DatabaseSync(`${dir}/${name}.sqlite`);
  db.exec("PRAGMA page_size=8192; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL");
  return db;
}

function timed<T>(label: string, f: () => T): T {
  const t0 = performance.now();
  const out = f();
  console.log(`${label}: ${(performance.now() - t0).toFixed(1)} ms`);
  return out;
}

const requests: Line[][] = Array.from(
  { length: REQUESTS },
  (_, r) =>
    Array.from({ length: PER_REQUEST }, (_, i): Line => [
      BASE_NS + BigInt(r * PER_REQUEST + i) * 1000n,
      `level=info msg="request handled" path=/api/v1/items/${i} status=200 dur=${i % 97}ms`,
      `{"trace_id":"${(r * PER_REQUEST + i).toString(16)}"}`,
      `app-${i % 5}`,
    ]),
);
const lo = BASE_NS + 100_000_000n, hi = BASE_NS + 110_000_000n;

function rows(): void {
  const db = open("rows");
  db.exec(
    "CREATE TABLE logs (ts INTEGER NOT NULL, line TEXT, meta TEXT, job TEXT); CREATE INDEX ix ON logs(ts)",
  );
  const per = 100;
  const insert = db.prepare(`INSERT INTO logs VALUES ${Array(per).fill("(?,?,?,?)").join(",")}`);
  const c0 = cpu();
  for (const req of requests) {
    db.exec("BEGIN");
    for (let i = 0; i < req.length; i += per) insert.run(...req.slice(i, i + per).flat());
    db.exec("COMMIT");
  }
  console.log(`rows: write ${perLine(cpu() - c0)} CPU`);
  timed(
    "rows: LIKE scan",
    () => db.prepare("SELECT count(*) FROM logs WHERE line LIKE '%status=200%'").get(),
  );
  timed(
    "rows: time range",
    () => db.prepare("SELECT count(*) FROM logs WHERE ts BETWEEN ? AND ?").get(lo, hi),
  );
  db.close();
}

function blobs(): void {
  const db = open("blob");
  db.exec(
    "CREATE TABLE chunks (min_ts INTEGER, max_ts INTEGER, body TEXT); CREATE INDEX cx ON chunks(max_ts, min_ts);" +
      "CREATE VIEW logs AS SELECT j.value->>0 AS ts, j.value->>1 AS line, j.value->>2 AS meta, j.value->>3 AS job " +
      "FROM chunks, json_each(chunks.body) j",
  );
  const insert = db.prepare("INSERT INTO chunks VALUES (?,?,?)");
  const c0 = cpu();
  const docs = requests.map((req) => JSON.stringify(req.map(([ts, ...rest]) => [Number(ts), ...rest])));
  const c1 = cpu();
  for (let r = 0; r < REQUESTS; r++) {
    db.exec("BEGIN");
    insert.run(requests[r][0][0], requests[r][PER_REQUEST - 1][0], docs[r]);
    db.exec("COMMIT");
  }
  const c2 = cpu();
  console.log(
    `blob: write ${perLine(c2 - c0)} CPU (stringify ${perLine(c1 - c0)}, insert ${perLine(c2 - c1)})`,
  );
  timed(
    "blob: LIKE scan",
    () => db.prepare("SELECT count(*) FROM logs WHERE line LIKE '%status=200%'").get(),
  );
  timed("blob: time range, chunks pruned", () =>
    db.prepare(
      "SELECT count(*) FROM chunks, json_each(chunks.body) j WHERE chunks.max_ts >= ? AND chunks.min_ts <= ? " +
        "AND j.value->>0 BETWEEN ? AND ?",
    ).get(lo, hi, lo, hi));
  const c3 = cpu();
  const packed = docs.map((d) => zlib.deflateRawSync(d, { level: 1 }));
  const size = (xs: Array<{ length: number }>) => xs.reduce((n, x) => n + x.length, 0);
  console.log(
    `deflate level 1: ${perLine(cpu() - c3)} CPU, ${
      (size(packed) / size(docs) * 100).toFixed(1)
    } % of the size`,
  );
  db.close();
}

rows();
blobs();
Deno.removeSync(dir, { recursive: true });
