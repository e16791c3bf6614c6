/**
 * Hostile input, at length: `deno run -A scripts/fuzz.ts [--body] [rounds=10] [iterations=300] [seed=1]
 * [family regexp]` runs seeded fuzz rounds (see `test/reliability/fuzz.ts`; with `--body` the
 * structure-aware ingest body rounds of `test/reliability/fuzz_body.ts`) against one Petrel child
 * process and prints the status counts per endpoint family and every contract violation (5xx, hang,
 * crash, a rejected request that wrote, an error not in its endpoint's shape, a slow `/health`).
 * Exit 1 on any violation.
 */
import { fuzzRound, slowLoris, startFuzzTarget } from "../test/reliability/fuzz.ts";
import { bodyFuzzRound } from "../test/reliability/fuzz_body.ts";

const body = Deno.args.includes("--body");
const args = Deno.args.filter((a) => a !== "--body");
const rounds = Number(args[0] ?? 10);
const iterations = Number(args[1] ?? 300);
const seed = Number(args[2] ?? 1);
/** Optional 4th argument: a regular expression over family names (`sql`, `lineproto`, …). */
const only = args[3] ? new RegExp(args[3]) : undefined;
const BODY_LIMIT = 1 << 20;

const target = await startFuzzTarget(BODY_LIMIT);
const statuses = new Map<string, number>();
let requests = 0;
const failures: string[] = [];
const started = performance.now();
try {
  for (let i = 0; i < rounds; i++) {
    const r = body
      ? await bodyFuzzRound(target, seed + i, iterations, only)
      : await fuzzRound(target, seed + i, iterations, BODY_LIMIT, only);
    requests += r.requests;
    for (const [k, n] of r.statuses) statuses.set(k, (statuses.get(k) ?? 0) + n);
    failures.push(...r.failures);
    console.log(
      `round ${i + 1}/${rounds} (seed ${seed + i}): ${r.requests} requests, ${r.failures.length} violations`,
    );
    for (const f of r.failures.slice(0, 20)) console.log(`  ${f}`);
  }
  const [status, ms] = await slowLoris(`${target.url}/v1/influxdb/write`, "1s");
  console.log(`slow-loris body with a 1s timeout: HTTP ${status} after ${Math.round(ms)} ms`);
  // a write path answers its timeout 504 (shippers retry 5xx, drop 408)
  if (status !== 504) failures.push(`slow loris: ${status}`);
} finally {
  await target.stop(failures.length > 0);
  if (failures.length > 0) console.log(`data dir kept for replay: ${target.dataHome}`);
}
for (const [k, n] of [...statuses].sort()) console.log(`  ${k}: ${n}`);
console.log(
  `total: ${requests} requests in ${Math.round((performance.now() - started) / 1000)} s, ` +
    `${failures.length} violations`,
);
if (failures.length > 0) Deno.exit(1);
