/**
 * Engine benchmark: a dissect + date pipeline over NDJSON nginx-style access logs, measured
 * without HTTP or storage. Run: `deno run -A engine/bench.ts [lines]`.
 */
import "./identity.ts";
import { compilePipeline } from "./pipeline.ts";

/** The benchmark pipeline: dissect an nginx access line, parse its date, type the fields. */
export const BENCH_PIPELINE = `
processors:
  - dissect:
      fields:
        - message
      patterns:
        - '%{ip} - %{user} [%{ts}] "%{method} %{path} %{proto}" %{status} %{size} "%{referrer}" "%{agent}"'
  - date:
      fields:
        - ts
      formats:
        - "%d/%b/%Y:%H:%M:%S %z"
transform:
  - fields: [ip, user, method, path, proto, referrer, agent]
    type: string
  - field: status
    type: uint16
    index: inverted
  - field: size
    type: int64
  - field: ts
    type: time
    index: timestamp
`;

const METHODS = ["GET", "POST", "PUT", "DELETE"];
const PATHS = ["/", "/api/v1/items", "/login", "/static/app.js", "/health"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** NDJSON text of `n` synthetic access-log lines. */
export function makeNginxNdjson(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const sec = i % 60;
    const line = `10.0.${(i >> 8) & 255}.${i & 255} - - [${String(1 + (i % 28)).padStart(2, "0")}/${
      MONTHS[i % 12]
    }/2024:12:${String((i >> 6) % 60).padStart(2, "0")}:${String(sec).padStart(2, "0")} +0000] "${
      METHODS[i % 4]
    } ${PATHS[i % 5]}?id=${i} HTTP/1.1" ${[200, 200, 404, 500][i % 4]} ${(i * 37) % 10000} "-" "curl/8.${
      i % 10
    }"`;
    out.push(JSON.stringify({ message: line }));
  }
  return out.join("\n");
}

/** Lines per second of the engine alone, and of NDJSON parsing alone. */
export function benchPipeline(lines = 200_000): { linesPerSec: number; jsonParseLinesPerSec: number } {
  const pipeline = compilePipeline(BENCH_PIPELINE, { name: "bench" });
  // Warm the JIT up first so the number reflects steady state.
  const warm = makeNginxNdjson(Math.min(lines, 20_000)).split("\n").map((l) => JSON.parse(l));
  pipeline.run(warm, { table: "bench", skipError: false, resolve: () => undefined });
  const text = makeNginxNdjson(lines);
  const t0 = performance.now();
  const records = text.split("\n").map((l) => JSON.parse(l));
  const t1 = performance.now();
  const res = pipeline.run(records, { table: "bench", skipError: false, resolve: () => undefined });
  const t2 = performance.now();
  const rows = res.batches.reduce((n, b) => n + b.rows.length, 0);
  if (rows !== lines) throw new Error(`bench: expected ${lines} rows, got ${rows}`);
  return {
    linesPerSec: Math.round(lines / ((t2 - t1) / 1000)),
    jsonParseLinesPerSec: Math.round(lines / ((t1 - t0) / 1000)),
  };
}

if (import.meta.main) {
  console.log(benchPipeline(Number(Deno.args[0] ?? 200_000)));
}
